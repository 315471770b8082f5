package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/report"
	"github.com/webload/webload/stats"
)

// mergeFlags are the merge command's options.
func mergeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the merged result to `FILE` (JSON, like a run's -o)"},
		&cli.BoolFlag{Name: "json-output", Aliases: []string{"j"}, Usage: "print the merged result as JSON instead of text"},
		&cli.BoolFlag{Name: "per-url", Usage: "add the per-URL table to the text report"},
		&cli.StringFlag{Name: "max-lateness", Usage: "fail (exit 1, like a gate) when the latest shard started more than `DURATION` (e.g. 1s) after the planned start (--start-at), or after the earliest shard without one"},
		helpFlag(),
	}
}

// mergeCommand merges the results of a sharded run (--shard I/N) into the result of the whole
// run, which report, compare and gates take like any other.
func mergeCommand(c *cli.Context, stdout io.Writer) error {
	if c.Bool("help") {
		return cli.ShowCommandHelp(c, "merge")
	}
	if c.Args().Len() == 0 {
		return usagef("merge needs the shards' result files (webload merge shard-*.json -o total.json)")
	}
	maxLate, err := maxLateness(c)
	if err != nil {
		return err
	}
	shards, err := readReports(c.Args().Slice())
	if err != nil {
		return err
	}
	rep, err := stats.Merge(shards)
	if err != nil {
		return usageError{err}
	}
	if path := c.String("output"); path != "" {
		if err := stats.SaveJSON(path, &rep); err != nil {
			return err
		}
	}
	if c.Bool("json-output") {
		err = stats.WriteJSON(stdout, &rep)
	} else {
		err = report.WriteText(stdout, &rep, report.TextOptions{PerURL: c.Bool("per-url")})
	}
	if err := stdoutErr(err); err != nil {
		return err
	}
	return judgeOverlap(*rep.Run.ShardsOverlap, maxLate, c.App.ErrWriter)
}
