package main

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/report"
	"github.com/webload/webload/run"
)

func reportFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "html", Usage: "write the report to `FILE`: one HTML page that opens offline"},
		&cli.StringFlag{Name: "title", Usage: "`TITLE` of the page (default: the results' labels)"},
		helpFlag(),
	}
}

// reportCommand is `webload report RESULT.json... --html FILE`.
func reportCommand(c *cli.Context) error {
	if c.Bool("help") {
		return cli.ShowCommandHelp(c, "report")
	}
	paths := c.Args().Slice()
	if len(paths) == 0 {
		return usagef("report: give the results to show, saved with -o (webload report run.json --html run.html)")
	}
	out := c.String("html")
	if out == "" {
		return usagef("report: give --html FILE, the page to write")
	}
	results, err := readReports(paths)
	if err != nil {
		return err
	}
	for i := range results {
		// An unlabelled run is best known by its file's name.
		if results[i].Label == "" {
			results[i].Label = strings.TrimSuffix(filepath.Base(paths[i]), ".json")
		}
	}
	err = run.SaveHTML(out, results, report.Options{Title: c.String("title")})
	if re := (*report.ResultError)(nil); errors.As(err, &re) {
		return usagef("report %s: %w", paths[re.Index], re.Err)
	}
	return err
}
