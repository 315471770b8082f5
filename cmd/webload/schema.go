package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/stats"
)

// schemaCommandDef is "webload schema": the JSON Schema of the result -o writes, for tools
// that read results to validate them against (docs/result-format.md).
func schemaCommandDef(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:     "schema",
		Usage:    "print the JSON Schema (draft 2020-12) of the result -o writes: webload schema > result.schema.json",
		Flags:    []cli.Flag{helpFlag()},
		HideHelp: true,
		Action: func(c *cli.Context) error {
			_, err := stdout.Write(stats.Schema())
			return stdoutErr(err)
		},
	}
}
