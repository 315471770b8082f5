package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/remotewrite"
	"github.com/webload/webload/report"
	"github.com/webload/webload/run"
	"github.com/webload/webload/urls"
)

// runSpec is what the command line asks for: the run, and the gates checked on its result.
type runSpec struct {
	run.Spec
	gates []gate.Gate
	junit string
	cpus  int // the most CPUs webload's own work runs on (see cpusFor); 0 for all
}

// specFromFlags checks every setting and reads the URLs. Each problem names its flag, or the
// file and line; all of them are reported at once, those a siegerc set with its line (from),
// after the problems found earlier (the siegerc's bad lines).
func specFromFlags(c *cli.Context, o *runOptions, env lookupEnv, from origin, earlier ...error) (runSpec, error) {
	s := runSpec{Spec: run.Spec{Config: loader.DefaultConfig()}}
	s.Config.SettingName = settingName
	var p problems
	for _, err := range earlier {
		p.add("", err) // the siegerc's bad lines, which name their line already
	}
	usersFromFlags(o, &s, &p)
	loadFromFlags(c, o, &s.Config, &p)
	if o.cpus < 0 {
		p.addf("cpus", "--cpus: must be at least 1, or 0 for all (got %d)", o.cpus)
	}
	sess := sessionsFromFlags(c, o, &s, env, &p)
	requestsFromFlags(c, o, &s.Config, &p)
	browserFromFlags(o, &s.Config, sess.env(env), sess, &p)
	bareFromFlags(c, o, &s.Config, &p)
	s.cpus = cpusFor(c.IsSet("cpus"), o.cpus, s.Config.HTTP2, runtime.GOMAXPROCS(0))
	s.Outputs = outputsFromFlags(o, &p)
	checksFromFlags(c, o, &s, env, &p)
	if s.Outputs.Verbose {
		s.Config.BatchSize = 1 // each line as soon as its request ends
	}
	s.Targets = targetsFromFlags(c, o, sess.env(env), sess, &p)
	s.Info = run.NewInfo(&s.Config, o.reps.text, o.file, version)
	s.Info.DataFile, s.Info.DataPick, s.Info.LoginFile = s.Sessions.DataFile, s.Sessions.DataPick, s.Sessions.LoginFile
	shardFromFlags(c, o, &s, env, &p)
	checkSessions(o, &s, sess, &p) // after the shards, which number the open model's users
	if probeURL(o) == "" {
		checkOutputs(o, &p) // -g and -p make one request and write no file
	}
	if len(p.list) == 0 {
		// The loader's own checks (--cert without --key, --http2 with --connection close, a
		// bad --proxy) come before the banner too; after other problems they would repeat them.
		if err := s.Config.Validate(); err != nil {
			p.add("", err)
		}
	}
	if err := p.err(from); err != nil {
		return s, err
	}
	s.Identify(c.IsSet("seed"))
	return s, nil
}

// loadFromFlags reads how much load, for how long (usersFromFlags reads the users): rate, repetitions, time, pauses.
func loadFromFlags(c *cli.Context, o *runOptions, cfg *loader.Config, p *problems) {
	cfg.MaxUsers = 0 // the open model's cap, set with --rate below: a closed run's result shows none
	o.reps.book(p)
	cfg.Reps, cfg.Once = o.reps.val.n, o.reps.val.once
	o.time.book(p)
	cfg.Duration = o.time.val
	if c.IsSet("delay") && !o.benchmark {
		o.delay.book(p)
		cfg.Delay = o.delay.val
	}
	o.timeout.book(p)
	cfg.Timeout = o.timeout.val
	if c.IsSet("rate") {
		o.rate.book(p)
		cfg.Rate = o.rate.val
		if c.IsSet("concurrent") {
			p.addf("concurrent", "-c sets the users of the closed model; with --rate the schedule starts users as needed, capped by --max-users")
		}
		if c.IsSet("delay") {
			p.addf("delay", "-d pauses closed-model users; with --rate the schedule alone decides when requests start")
		}
		cfg.MaxUsers = o.maxUsers
		if cfg.MaxUsers < 1 {
			p.addf("max-users", "--max-users: must be at least 1 (got %d)", cfg.MaxUsers)
		}
		if !c.IsSet("max-users") {
			// The default cap must not make a run fail on a machine with fewer open files; a cap
			// the user asked for is checked, and refused, before the run.
			if allowed, err := loader.MaxUsersForFileLimit(); err == nil && allowed > 0 {
				cfg.MaxUsers = min(cfg.MaxUsers, allowed)
			}
		}
	}
	if c.IsSet("ramp") {
		o.ramp.book(p)
		cfg.Ramp = o.ramp.val
	}
	cfg.Random = o.internet
	cfg.Seed = rand.Uint64()
	if c.IsSet("seed") {
		cfg.Seed = o.seed
	}
	if cfg.MaxFailures = o.failures; cfg.MaxFailures < 0 {
		p.addf("failures", "--failures: want a number of failures from 1 (got %d)", cfg.MaxFailures)
	}
}

// requestsFromFlags reads what every request carries and how it is sent.
func requestsFromFlags(c *cli.Context, o *runOptions, cfg *loader.Config, p *problems) {
	o.header.book(p)
	cfg.Headers = o.header.values()
	o.volatile.book(p)
	cfg.Volatile = o.volatile.values()
	cfg.UserAgent = "webload/" + version
	if c.IsSet("user-agent") {
		cfg.UserAgent = o.userAgent
	}
	cfg.ContentType = o.contentType
	o.connectionClose.book(p)
	cfg.ConnectionClose = o.connectionClose.val
	cfg.Insecure = o.insecure
	if c.IsSet("header-buffer") {
		o.headerBuffer.book(p)
		cfg.HeaderBuffer = int(o.headerBuffer.val)
	}
	o.checks.book(p)
	cfg.Checks = o.checks.values()
	if c.IsSet("max-body") {
		o.maxBody.book(p)
		cfg.MaxBody = o.maxBody.val
	}
}

func outputsFromFlags(o *runOptions, p *problems) run.Outputs {
	out := run.Outputs{
		Quiet:       o.quiet,
		JSON:        o.jsonOutput,
		JSONFile:    o.output,
		LogFile:     o.log,
		HdrLogFile:  o.hdrLog,
		CSVFile:     o.csv,
		PromAddr:    o.promListen,
		RemoteWrite: o.remoteWrite,
		Mark:        o.mark,
		Label:       o.label,
		HTMLFile:    o.html,
	}
	out.Verbose = o.verbose && !out.Quiet && !out.JSON
	if out.RemoteWrite != "" {
		if _, err := remotewrite.NewClient(out.RemoteWrite); err != nil {
			p.addf("remote-write", "--remote-write: %v", err)
		}
	}
	if out.Mark != "" && out.LogFile == "" {
		p.addf("mark", "-m: a mark goes into the log file; give one with -l FILE")
	}
	o.siegeFormat.book(p)
	out.Text = report.TextOptions{Layout: o.siegeFormat.val, PerURL: o.perURL}
	return out
}

// checksFromFlags reads what surrounds the load: the timeline, repeats, gates, history, server
// metrics and databases.
func checksFromFlags(c *cli.Context, o *runOptions, s *runSpec, env lookupEnv, p *problems) {
	o.interval.book(p)
	s.Interval = o.interval.val
	s.Repeat = o.repeat
	if s.Repeat < 1 {
		p.addf("repeat", "--repeat: want at least 1 run (got %d)", s.Repeat)
	}
	o.repeatPause.book(p)
	s.RepeatPause = o.repeatPause.val
	o.assert.book(p)
	s.gates = o.assert.values()
	abortFromFlags(c, &o.abort, s, p)
	s.junit = o.junit
	if s.junit != "" && len(o.assert.texts()) == 0 && len(o.abort.on.texts()) == 0 && len(o.slo.texts()) == 0 {
		p.addf("junit", "--junit: there are no gates to report; add --assert EXPR or --abort-on EXPR")
	}
	s.History = o.history
	if spec := o.serverMetrics.text; spec != "" {
		o.serverMetrics.book(p)
		s.Server, s.ServerSpec = o.serverMetrics.val, spec
	}
	for _, raw := range o.db.Value() {
		t, err := dbload.ParseTargetEnv(raw, env)
		if err != nil {
			p.addValue("db", raw, fmt.Errorf("--db: %w", err))
			continue
		}
		s.Databases = append(s.Databases, t)
		// A page may print the database's password (a debugging page, an error dump).
		s.Config.Secrets = append(s.Config.Secrets, t.Secrets()...)
	}
	if o.dbStatementsTop < 0 {
		p.addf("db-statements-top", "--db-statements-top: %d is not a number of statements", o.dbStatementsTop)
	}
	o.dbSlow.book(p)
	s.DBStatements = dbload.Options{Statements: o.dbStatements, Top: o.dbStatementsTop, Slow: o.dbSlow.val}
}

// targetsFromFlags reads the URL given on the command line or the URL file ("-" is standard
// input). An unquoted "URL POST data" arrives as several arguments and is put back together.
// sess names the users' own variables (--data columns, the login file's #@extract names).
func targetsFromFlags(c *cli.Context, o *runOptions, env lookupEnv, sess *sessions, p *problems) []urls.Target {
	opt := urls.Options{Getenv: env, AllowAbsoluteBodies: o.allowAbsoluteBodies, PerUser: sess.perUser}
	args := c.Args().Slice()
	one := func(flag, line string) []urls.Target {
		t, err := urls.ParseLine(line, opt)
		if err != nil {
			p.addValue(flag, line, sess.explain(err))
			return nil
		}
		return []urls.Target{t}
	}
	many := func(targets []urls.Target, err error) []urls.Target {
		if err != nil {
			p.add("file", sess.explain(err))
		}
		return targets
	}
	switch {
	case o.targets != nil:
		return o.targets
	case probeURL(o) != "":
		return one("", probeURL(o))
	case len(args) > 0 && o.file != "":
		p.addf("", "give either a URL or a URL file (-f), not both")
	case len(args) > 1 && !isMethod(args[1]):
		p.addf("", "expected one URL, got %d arguments (put several URLs in a file and use -f)", len(args))
	case len(args) > 0:
		return one("", strings.Join(args, " "))
	case o.file == "-":
		// Relative "<file" bodies of a piped list are relative to the current folder.
		return many(urls.Parse(c.App.Reader, "stdin", ".", opt))
	case o.file != "":
		return many(urls.ParseFile(o.file, opt))
	default:
		p.addf("", "no URL: give one (webload http://127.0.0.1:8080/) or a URL file (webload -f urls.txt)")
	}
	return nil
}

func isMethod(s string) bool {
	switch s {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS":
		return true
	}
	return false
}
