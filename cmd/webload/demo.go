package main

import (
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/internal/shop"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// demoCommand starts the sample shop on loopback and runs the user's typical command against
// its 50 pages: 20 users, 50 requests each, so every user visits every page once.
func demoCommand(c *cli.Context, stdout, stderr io.Writer) error {
	site, err := shop.Start(1)
	if err != nil {
		return err
	}
	defer site.Close()

	var targets []urls.Target
	for _, u := range site.URLs() {
		t, err := urls.ParseLine(u, urls.Options{})
		if err != nil {
			return fmt.Errorf("demo URL: %w", err)
		}
		targets = append(targets, t)
	}
	cfg := loader.Config{
		Users:       20,
		Reps:        50,
		Timeout:     30 * time.Second,
		UserAgent:   "webload/" + version,
		ContentType: "application/x-www-form-urlencoded",
		Seed:        1,
	}
	spec := runSpec{
		cfg:     cfg,
		targets: targets,
		info:    runInfo(&cfg, "50", ""),
		out: outputs{
			label: "demo: sample shop",
			text:  stats.TextOptions{Layout: stats.Siege40, PerURL: true},
		},
	}
	fmt.Fprintf(stderr, "Sample shop with %d pages on %s; the same as: webload -c 20 -r 50 -f urls.txt\n",
		len(targets), site.URL())
	return execute(c.Context, spec, stdout, stderr)
}
