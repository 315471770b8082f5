package main

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/changepoint"
	"github.com/webload/webload/report"
	"github.com/webload/webload/run"
)

func reportFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "html", Usage: "write the report to `FILE`: one HTML page that opens offline"},
		&cli.StringFlag{Name: "title", Usage: "`TITLE` of the page (default: the results' labels)"},
		&cli.StringFlag{Name: "history", Usage: "write the trend page of the results in `DIR` (written by --history): each figure over the nights, its change points marked, linked to each night's NAME.html beside NAME.json"},
		&cli.Float64Flag{Name: "change-p", Value: changepoint.DefaultP, Usage: "with --history, mark a change point only when the t-test between the nights either side gives p below `P`"},
		&cli.StringFlag{Name: "change-min", Value: "5%", Usage: "with --history, mark a change point only when the figure's mean moved by `PERCENT` or more"},
		helpFlag(),
	}
}

// reportCommand is `webload report RESULT.json... --html FILE`.
func reportCommand(c *cli.Context) error {
	if c.Bool("help") {
		return cli.ShowCommandHelp(c, "report")
	}
	out := c.String("html")
	if dir := c.String("history"); dir != "" {
		if out == "" {
			return usagef("report: give --html FILE, the page to write")
		}
		return reportHistory(c, dir, out)
	}
	paths := c.Args().Slice()
	if len(paths) == 0 {
		return usagef("report: give the results to show, saved with -o (webload report run.json --html run.html)")
	}
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
