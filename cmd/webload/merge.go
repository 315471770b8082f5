package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/stats"
)

// mergeFlags are the merge command's options.
func mergeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the merged result to `FILE` (JSON, like a run's -o)"},
		&cli.BoolFlag{Name: "json-output", Aliases: []string{"j"}, Usage: "print the merged result as JSON instead of text"},
		&cli.BoolFlag{Name: "per-url", Usage: "add the per-URL table to the text report"},
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
		return stdoutErr(stats.WriteJSON(stdout, &rep))
	}
	return stdoutErr(stats.WriteText(stdout, &rep, stats.TextOptions{PerURL: c.Bool("per-url")}))
}
