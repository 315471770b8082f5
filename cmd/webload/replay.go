package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/replay"
	"github.com/webload/webload/urls"
)

// replayCommandDef is `webload replay`: the replay's own flags, then the run's, those that set
// the load or the users hidden and refused.
func replayCommandDef(stdout, stderr io.Writer, env lookupEnv) *cli.Command {
	o := new(runOptions)
	flags := replayFlags()
	flags = append(flags, runFlagsBut(o, notForReplay)...)
	return &cli.Command{
		Name:      "replay",
		Usage:     "send an access log's requests (nginx or Apache, common or combined, plain or gzip) at their logged moments, faster with --speed, each visitor's through one user with its own cookies",
		ArgsUsage: "LOG... --site URL",
		Flags:     flags,
		HideHelp:  true,
		Action:    func(c *cli.Context) error { return replayCommand(c, o, stdout, stderr, env) },
	}
}

func replayFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "site", Category: catLoad, Usage: "send to `URL` such as http://127.0.0.1:8080: it replaces the logged scheme and host (needed when the log has paths only)"},
		&cli.StringFlag{Name: "speed", Value: "1", Category: catLoad, Usage: "replay `FACTOR` times faster: 2, 2x or 200%; 0.5 is half speed"},
		&cli.StringFlag{Name: "from", Category: catLoad, Usage: "replay the lines logged at `TIME` or later, by the log's clock: 10/Oct/2026:13:55:36 +0000 or 2026-10-10T13:55:36Z"},
		&cli.StringFlag{Name: "to", Category: catLoad, Usage: "replay the lines logged before `TIME`, by the log's clock"},
		&cli.StringFlag{Name: "methods", Category: catLoad, Usage: "replay these `METHODS` (default GET,HEAD: logs carry no bodies)"},
		&cli.StringFlag{Name: "status", Category: catLoad, Usage: "replay requests answered with these `STATUSES` (default 2xx,3xx)"},
		&cli.BoolFlag{Name: "include-assets", Category: catLoad, Usage: "replay static assets too (as urls import: by logged content type, else by path)"},
		&cli.BoolFlag{Name: "include-bots", Category: catLoad, Usage: "replay the requests of obvious bots too"},
		&cli.IntFlag{Name: "visitor-field", Category: catLoad, Usage: "name each visitor by the `N`th field logged after the user agent (1 for the first), such as a session cookie a log_format adds (\"$cookie_sid\"), rather than by its address and user agent, so visitors behind one proxy stay apart; lines without it fall back to address and agent"},
		&cli.StringSliceFlag{Name: "include", Category: catLoad, Usage: "replay only requests whose path and query match `REGEX` (repeatable)"},
		&cli.StringSliceFlag{Name: "exclude", Category: catLoad, Usage: "leave out requests whose path and query match `REGEX` (repeatable)"},
		&cli.StringFlag{Name: "host", Category: catLoad, Usage: "replay only the logged full URLs of `HOST`"},
		helpFlag(),
	}
}

// notForReplay are the run flags a replay refuses, with why.
var notForReplay = map[string]string{
	"concurrent":    byTheLog,
	"reps":          byTheLog,
	"rate":          byTheLog,
	"ramp":          byTheLog,
	"delay":         byTheLog,
	"benchmark":     byTheLog,
	"internet":      byTheLog,
	"file":          "whose requests are the log's",
	"repeat":        "which replays the log once",
	"repeat-pause":  "which replays the log once",
	"data":          byTheVisitors,
	"data-pick":     byTheVisitors,
	"login":         byTheVisitors,
	"login-file":    byTheVisitors,
	"relogin-every": byTheVisitors,
	"get":           "which sends a log: make one request with webload -g",
	"print":         "which sends a log: make one request with webload -p",
	"config":        "which sends a log: print the settings with webload -C",
}

// Why notForReplay refuses a flag, each reason for several.
const (
	byTheLog      = "whose load is the log's own timing (--speed scales it)"
	byTheVisitors = "whose users are the log's visitors, with the cookies they get"
)

// replayOptions reads the replay's own flags; each problem names its flag.
func replayOptions(c *cli.Context, p *problems) replay.Options {
	opt := replay.Options{
		Logs:   c.Args().Slice(),
		Filter: logFilter(c, "site"),
	}
	refuseSet(c, p, "replay", notForReplay)
	if len(opt.Logs) == 0 {
		p.addf("", "no log: give one or more access logs (webload replay access.log --site http://127.0.0.1:8080)")
	}
	if opt.VisitorField = c.Int("visitor-field"); opt.VisitorField < 0 {
		p.addf("visitor-field", "--visitor-field: want 1 for the first field after the user agent, 2 for the second… (got %d)", opt.VisitorField)
	}
	var err error
	if opt.Speed, err = replay.ParseSpeed(c.String("speed")); err != nil {
		p.addf("speed", "--speed: %w", err)
	}
	for flag, at := range map[string]*time.Time{"from": &opt.From, "to": &opt.To} {
		if !c.IsSet(flag) {
			continue
		}
		var err error
		if *at, err = replay.ParseLogTime(c.String(flag)); err != nil {
			p.addf(flag, "--%s: %w", flag, err)
		}
	}
	return opt
}

// replayCommand reads the logs once for their plan (the URLs, how many requests, over how
// long), then runs them as an open-model run whose arrivals are the log's, and judges the
// result as a run's.
func replayCommand(c *cli.Context, o *runOptions, stdout, stderr io.Writer, env lookupEnv) error {
	if c.Bool("help") {
		return cli.ShowCommandHelp(c, "replay")
	}
	var p problems
	opt := replayOptions(c, &p)
	if err := p.err(func(string, string) (string, bool) { return "", false }); err != nil {
		return err
	}
	// The open model: --max-users caps the users in flight; the rate only describes the log.
	if err := c.Set("rate", "1"); err != nil {
		return fmt.Errorf("setting the open model: %w", err)
	}
	// The run's settings are checked before the logs are read, which may take a while.
	o.targets = []urls.Target{}
	spec, err := specFromFlags(c, o, env, func(string, string) (string, bool) { return "", false })
	if err != nil {
		return err
	}
	// Shards deal out visitors, each keeping the whole log's clock.
	opt.Interval, opt.Shard, opt.Shards = spec.Interval, spec.Config.Shard, spec.Config.Shards
	plan, err := replay.NewPlan(opt)
	if err != nil {
		return usageError{err}
	}
	spec.Targets = plan.Targets
	cfg := &spec.Config
	// The log has the requests a browser made, its redirects' targets and (with
	// --include-assets) its resources among them: following or fetching them would send them twice.
	cfg.FollowRedirects = false
	if !c.IsSet("parser") {
		cfg.Parser = false
	}
	cfg.Rate = plan.Rate()
	spec.Info.Rate, spec.Info.Reps, spec.Info.URLFile = cfg.Rate, "", strings.Join(opt.Logs, " ")
	spec.Replay = plan
	if plan.Empty() {
		// As a run's empty shard: told even under -q, since a shard that loads nothing is worth knowing of.
		fmt.Fprintf(stderr, "webload: shard %d/%d has none of the log's visitors: dealt over %d shards, they leave it none; it sends nothing, and its empty result merges with the others'\n",
			cfg.Shard, cfg.Shards, cfg.Shards)
	}
	showProgress(&spec.Outputs, stderr, env)
	return executeAndJudge(c.Context, &spec, stdout, stderr)
}
