package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/internal/shop"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/report"
	"github.com/webload/webload/run"
	"github.com/webload/webload/urls"
)

// demoCommand starts the sample shop on loopback and runs the user's typical command against
// its 50 pages: 20 users, 50 requests each, so every user visits every page once.
func demoCommand(c *cli.Context, stdout, stderr io.Writer) error {
	site, err := shop.Start(shop.Config{Addr: c.String("addr"), Seed: 1, Slowdown: c.Float64("slowdown")})
	if err != nil {
		return usageError{err}
	}
	defer site.Close()
	if c.Bool("serve") {
		return serveShop(c, site, stderr)
	}

	var targets []urls.Target
	for _, u := range site.URLs() {
		t, err := urls.ParseLine(u, urls.Options{})
		if err != nil {
			return fmt.Errorf("demo URL: %w", err)
		}
		targets = append(targets, t)
	}
	cfg := loader.DefaultConfig() // the run's defaults: users load pages like browsers
	cfg.Users, cfg.Reps, cfg.Seed = 20, 50, 1
	cfg.MaxUsers = 0 // the open model's cap: a closed run's result shows none
	cfg.UserAgent = "webload/" + version
	cfg.SettingName = settingName
	spec := run.Spec{
		Config:  cfg,
		Targets: targets,
		Info:    run.NewInfo(&cfg, "50", "", version),
		Outputs: run.Outputs{
			Label: "demo: sample shop",
			Text:  report.TextOptions{Layout: report.Siege40, PerURL: true},
		},
	}
	fmt.Fprintf(stderr, "Sample shop with %d pages on %s; the same as: webload -c 20 -r 50 -f urls.txt\n",
		len(targets), site.URL())
	runStarts(c.Context)
	_, err = run.Execute(c.Context, spec, run.Streams{Stdout: stdout, Stderr: stderr})
	return runError(err)
}

// serveShop keeps the sample shop up until Ctrl-C, so it can stand in for a stack under test.
func serveShop(c *cli.Context, site *shop.Site, stderr io.Writer) error {
	fmt.Fprintf(stderr, "Sample shop on %s (pages listed in examples/shop-urls.txt); Ctrl-C stops it\n", site.URL())
	runStarts(c.Context)
	select {
	case <-c.Context.Done():
		return nil
	case <-site.Done():
		return site.Close()
	}
}

func demoFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "serve", Usage: "only serve the sample shop, until Ctrl-C, to load it yourself"},
		&cli.StringFlag{Name: "addr", Usage: "loopback `ADDRESS` to serve on, e.g. 127.0.0.1:8081 (default: a free port)"},
		&cli.Float64Flag{Name: "slowdown", Value: 1, Usage: "multiply every server time by `FACTOR`, to play a slower stack"},
		helpFlag(),
	}
}
