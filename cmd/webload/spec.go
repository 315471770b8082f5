package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
	"github.com/webload/webload/urls"
)

// runSpec is everything a run needs, taken from the flags.
type runSpec struct {
	cfg         loader.Config
	targets     []urls.Target
	info        stats.RunInfo
	out         outputs
	interval    time.Duration // timeline bucket and server sampling
	repeat      int           // runs in the series
	repeatPause time.Duration
	gates       []stats.Gate
	junit       string
	history     string
	startAt     time.Time      // --start-at: when the run begins; zero for at once
	server      sysload.Source // nil without --server-metrics
	serverSpec  string
}

// outputs says where the result goes.
type outputs struct {
	verbose, quiet, json bool
	progress, color      bool // a live progress line on stderr, in colour
	jsonFile, logFile    string
	hdrLogFile, csvFile  string // --hdr-log, --csv
	promAddr             string // --prometheus-listen
	htmlFile             string // --html
	mark, label          string
	text                 stats.TextOptions
}

// specFromFlags checks every flag and reads the URLs; any problem is a usage error naming the
// flag, or the file and line.
func specFromFlags(c *cli.Context, env lookupEnv) (runSpec, error) {
	var s runSpec
	cfg := &s.cfg
	cfg.Users = c.Int("concurrent")
	if cfg.Users < 1 {
		return s, usagef("-c: the number of users must be at least 1 (got %d)", cfg.Users)
	}
	switch r := c.String("reps"); r {
	case "":
	case "once":
		cfg.Once = true
	default:
		n, err := strconv.Atoi(r)
		if err != nil || n < 1 {
			return s, usagef("-r: want a number of requests per user or \"once\" (got %q)", r)
		}
		cfg.Reps = n
	}
	var err error
	if cfg.Duration, err = parseRunTime(c.String("time")); err != nil {
		return s, usagef("-t: %w", err)
	}
	if c.IsSet("delay") && !c.Bool("benchmark") {
		if cfg.Delay, err = parseSeconds(c.String("delay")); err != nil {
			return s, usagef("-d: %w", err)
		}
	}
	if cfg.Timeout, err = parseSeconds(c.String("timeout")); err != nil || cfg.Timeout <= 0 {
		return s, usagef("--timeout: want a positive number of seconds or a duration such as 500ms (got %q)", c.String("timeout"))
	}
	if c.IsSet("rate") {
		if cfg.Rate, err = parseRate(c.String("rate")); err != nil {
			return s, usagef("--rate: %w", err)
		}
		switch {
		case c.IsSet("concurrent"):
			return s, usagef("-c sets the users of the closed model; with --rate the schedule starts users as needed, capped by --max-users")
		case c.IsSet("delay"):
			return s, usagef("-d pauses closed-model users; with --rate the schedule alone decides when requests start")
		}
		cfg.MaxUsers = c.Int("max-users")
		if cfg.MaxUsers < 1 {
			return s, usagef("--max-users: must be at least 1 (got %d)", cfg.MaxUsers)
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
		if cfg.Ramp, err = parseSeconds(c.String("ramp")); err != nil {
			return s, usagef("--ramp: %w", err)
		}
	}
	if s.interval, err = parseSeconds(c.String("interval")); err != nil || s.interval < time.Millisecond {
		return s, usagef("--interval: want a duration of at least 1ms such as 1s or 500ms (got %q)", c.String("interval"))
	}
	cfg.Random = c.Bool("internet")
	cfg.Seed = rand.Uint64()
	if c.IsSet("seed") {
		cfg.Seed = c.Uint64("seed")
	}
	for _, h := range c.StringSlice("header") {
		hd, ok := parseHeader(h)
		if !ok {
			return s, usagef("-H: want \"Name: value\" (got %q)", h)
		}
		cfg.Headers = append(cfg.Headers, hd)
	}
	cfg.UserAgent = "webload/" + version
	if c.IsSet("user-agent") {
		cfg.UserAgent = c.String("user-agent")
	}
	if err := browserFromFlags(c, cfg, env); err != nil {
		return s, err
	}
	cfg.ContentType = c.String("content-type")
	switch conn := c.String("connection"); conn {
	case "keep-alive":
	case "close":
		cfg.ConnectionClose = true
	default:
		return s, usagef("--connection: want keep-alive or close (got %q)", conn)
	}
	cfg.Insecure = c.Bool("insecure")
	if c.IsSet("header-buffer") {
		n, err := parseSize(c.String("header-buffer"))
		if err != nil || n < 1<<10 || n > loader.MaxHeaderBuffer {
			return s, usagef("--header-buffer: want a size from 1KB to 1MB (got %q)", c.String("header-buffer"))
		}
		cfg.HeaderBuffer = int(n)
	}
	if c.IsSet("max-body") {
		if cfg.MaxBody, err = parseSize(c.String("max-body")); err != nil || cfg.MaxBody < 1 {
			return s, usagef("--max-body: want a size such as 512KB, 10MB or 1GB (got %q)", c.String("max-body"))
		}
	}
	if cfg.MaxFailures = c.Int64("failures"); cfg.MaxFailures < 0 {
		return s, usagef("--failures: want a number of failures from 1 (got %d)", cfg.MaxFailures)
	}

	if s.out, err = outputsFromFlags(c); err != nil {
		return s, err
	}
	if err := checksFromFlags(c, &s); err != nil {
		return s, err
	}
	if s.out.verbose {
		cfg.BatchSize = 1 // each line as soon as its request ends
	}
	if s.targets, err = targetsFromFlags(c, env); err != nil {
		return s, err
	}
	s.info = runInfo(cfg, c.String("reps"), c.String("file"))
	if err := shardFromFlags(c, &s, env); err != nil {
		return s, err
	}
	s.info.Test = testFingerprint(s.cfg, s.targets, c.IsSet("seed"))
	if s.cfg.Shards > 1 && !c.IsSet("seed") {
		// Every shard must draw the same random choices (-i, -d) to make up one run.
		s.cfg.Seed = seedFromFingerprint(s.info.Test)
		s.info.Seed = s.cfg.Seed
	}
	return s, nil
}

func outputsFromFlags(c *cli.Context) (outputs, error) {
	o := outputs{
		quiet:      c.Bool("quiet"),
		json:       c.Bool("json-output"),
		jsonFile:   c.String("output"),
		logFile:    c.String("log"),
		hdrLogFile: c.String("hdr-log"),
		csvFile:    c.String("csv"),
		promAddr:   c.String("prometheus-listen"),
		mark:       c.String("mark"),
		label:      c.String("label"),
		htmlFile:   c.String("html"),
	}
	o.verbose = c.Bool("verbose") && !o.quiet && !o.json
	if o.mark != "" && o.logFile == "" {
		return o, usagef("-m: a mark goes into the log file; give one with -l FILE")
	}
	layout, err := stats.ParseLayout(c.String("siege-format"))
	if err != nil {
		return o, usagef("--siege-format: %w", err)
	}
	o.text = stats.TextOptions{Layout: layout, PerURL: c.Bool("per-url")}
	return o, nil
}

// checksFromFlags reads what surrounds the load: repeats, gates, history and server metrics.
func checksFromFlags(c *cli.Context, s *runSpec) error {
	s.repeat = c.Int("repeat")
	if s.repeat < 1 {
		return usagef("--repeat: want at least 1 run (got %d)", s.repeat)
	}
	var err error
	if s.repeatPause, err = parseSeconds(c.String("repeat-pause")); err != nil {
		return usagef("--repeat-pause: %w", err)
	}
	for _, expr := range c.StringSlice("assert") {
		g, err := stats.ParseGate(expr)
		if err != nil {
			return usagef("--assert: %w", err)
		}
		s.gates = append(s.gates, g)
	}
	s.junit = c.String("junit")
	if s.junit != "" && len(s.gates) == 0 {
		return usagef("--junit: there are no gates to report; add --assert EXPR")
	}
	s.history = c.String("history")
	if spec := c.String("server-metrics"); spec != "" {
		if s.server, err = sysload.NewSource(spec, nil); err != nil {
			return usagef("--server-metrics: %w", err)
		}
		s.serverSpec = spec
	}
	return nil
}

// targetsFromFlags reads the URL given on the command line or the URL file ("-" is standard
// input). An unquoted
// "URL POST data" arrives as several arguments and is put back together.
func targetsFromFlags(c *cli.Context, env lookupEnv) ([]urls.Target, error) {
	opt := urls.Options{Getenv: env, AllowAbsoluteBodies: c.Bool("allow-absolute-bodies")}
	args := c.Args().Slice()
	file := c.String("file")
	if probe := probeURL(c); probe != "" {
		t, err := urls.ParseLine(probe, opt)
		if err != nil {
			return nil, usageError{err}
		}
		return []urls.Target{t}, nil
	}
	switch {
	case len(args) > 0 && file != "":
		return nil, usagef("give either a URL or a URL file (-f), not both")
	case len(args) > 1 && !isMethod(args[1]):
		return nil, usagef("expected one URL, got %d arguments (put several URLs in a file and use -f)", len(args))
	case len(args) > 0:
		t, err := urls.ParseLine(strings.Join(args, " "), opt)
		if err != nil {
			return nil, usageError{err}
		}
		return []urls.Target{t}, nil
	case file == "-":
		// Relative "<file" bodies of a piped list are relative to the current folder.
		targets, err := urls.Parse(c.App.Reader, "stdin", ".", opt)
		if err != nil {
			return nil, usageError{err}
		}
		return targets, nil
	case file != "":
		targets, err := urls.ParseFile(file, opt)
		if err != nil {
			return nil, usageError{err}
		}
		return targets, nil
	}
	return nil, usagef("no URL: give one (webload http://127.0.0.1:8080/) or a URL file (webload -f urls.txt)")
}

func isMethod(s string) bool {
	switch s {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS":
		return true
	}
	return false
}

// runInfo echoes the settings into the saved result.
func runInfo(cfg *loader.Config, reps, file string) stats.RunInfo {
	conn := "keep-alive"
	if cfg.ConnectionClose {
		conn = "close"
	}
	model := stats.ModelClosed
	if cfg.Rate > 0 {
		model = stats.ModelOpen
	}
	return stats.RunInfo{
		Model:      model,
		Rate:       cfg.Rate,
		MaxUsers:   cfg.MaxUsers,
		Ramp:       cfg.Ramp.Seconds(),
		Version:    version,
		Users:      cfg.Users,
		Reps:       reps,
		TimeLimit:  cfg.Duration.Seconds(),
		Random:     cfg.Random,
		Seed:       cfg.Seed,
		Delay:      cfg.Delay.Seconds(),
		Timeout:    cfg.Timeout.Seconds(),
		Connection: conn,
		URLFile:    file,
	}
}

// parseRunTime reads siege's -t: NUM with an optional unit S, M or H in any case; no unit
// means minutes, as in siege. Fractions are honoured (siege drops them).
func parseRunTime(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	num := strings.TrimRight(s, "sSmMhH")
	unit := strings.ToLower(s[len(num):])
	mult := map[string]time.Duration{"": time.Minute, "s": time.Second, "m": time.Minute, "h": time.Hour}[unit]
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if mult == 0 || err != nil || !(v > 0) || v*float64(mult) > math.MaxInt64 {
		return 0, fmt.Errorf("want NUM[S|M|H] such as 30S, 5M or 1H (got %q)", s)
	}
	d := time.Duration(v * float64(mult))
	if d <= 0 {
		// 0 means no time limit, the opposite of what was asked.
		return 0, fmt.Errorf("%q is shorter than a nanosecond; want NUM[S|M|H] such as 30S, 5M or 1H", s)
	}
	return d, nil
}

// parseRate reads --rate: requests per second ("500"), or requests per a period ("30/1m",
// "5/10s", "100/s").
func parseRate(s string) (float64, error) {
	num, per, hasPer := strings.Cut(s, "/")
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || !(n > 0) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("want requests per second such as 500, or per a period such as 30/1m (got %q)", s)
	}
	if !hasPer {
		return n, nil
	}
	if per != "" && (per[0] < '0' || per[0] > '9') {
		per = "1" + per // "100/s" means per one second
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a period such as 1s, 1m or 10s after \"/\" (got %q)", s)
	}
	if r := n / d.Seconds(); r <= math.MaxFloat64 {
		return r, nil
	}
	return 0, fmt.Errorf("want a rate below 1.8e308 requests per second (got %q)", s)
}

// parseSize reads a byte count with an optional unit: B, KB, MB, GB (powers of 1024, as the
// reports' MB).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("want a size such as 512KB or 10MB (got %q)", s)
	}
	return n * mult, nil
}

// parseSeconds reads a plain number of seconds (siege's style, "2" or "0.5") or a Go duration
// ("500ms", "1m30s").
func parseSeconds(s string) (time.Duration, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v >= 0) || v*float64(time.Second) > math.MaxInt64 {
			return 0, fmt.Errorf("want a number of seconds from 0 (got %q)", s)
		}
		return time.Duration(v * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want seconds or a duration such as 500ms (got %q)", s)
	}
	return d, nil
}
