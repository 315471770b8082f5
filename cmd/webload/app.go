package main

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// lookupEnv is os.LookupEnv, passed in so tests control the environment URL files see.
type lookupEnv func(string) (string, bool)

// newApp builds the command line. The App itself runs a load test (siege's command line), and
// also has the run and demo commands.
func newApp(stdout, stderr io.Writer, env lookupEnv) *cli.App {
	return newAppRunning(stdout, stderr, env, runCommand)
}

// runAction is what the App does with a load test's flags: runCommand, or in the test of the
// docs' commands only the checks of its settings.
type runAction func(c *cli.Context, o *runOptions, stdout, stderr io.Writer, env lookupEnv) error

// newAppRunning is newApp with act for the load test.
func newAppRunning(stdout, stderr io.Writer, env lookupEnv, act runAction) *cli.App {
	// urfave/cli's own help flag and command are package-level values it writes to while
	// parsing; each App gets its own instead, so several can run at once (as in the tests).
	// The run's help lists every flag under a heading; one without would come first, alone.
	help := helpFlag()
	help.Category = catDiagnostics
	opts := new(runOptions) // one App runs once: its flags fill these
	flags := append(optionFlags(opts), help)
	run := func(c *cli.Context) error { return act(c, opts, stdout, stderr, env) }
	app := &cli.App{
		Name:                      "webload",
		Usage:                     "load-test a web site, siege-compatible, with exact statistics",
		UsageText:                 "webload [options] URL\nwebload [options] -f urls.txt\nwebload demo\nwebload capacity --slo 'p95<500ms' URL\nwebload compare old.json new.json\nwebload report old.json new.json --html report.html\nwebload urls import --base URL export.csv",
		Version:                   version,
		HideVersion:               true, // -v is siege's --verbose; -V prints the version
		HideHelp:                  true,
		Writer:                    helpWriter{stdout, func() int { return helpWidth(stdout, env) }},
		ErrWriter:                 stderr,
		Flags:                     flags,
		Action:                    run,
		UseShortOptionHandling:    true,
		DisableSliceFlagSeparator: true,
		Commands: []*cli.Command{
			{
				Name:      "run",
				Usage:     "run a load test (the default command)",
				ArgsUsage: "[URL]",
				Flags:     flags,
				Action:    run,
				HideHelp:  true,
			},
			{
				Name:     "demo",
				Usage:    "start a sample shop on 127.0.0.1 and load it with -c 20 -r 50 (or only --serve it)",
				Flags:    demoFlags(),
				HideHelp: true,
				Action: func(c *cli.Context) error {
					if c.Bool("help") {
						return cli.ShowCommandHelp(c, "demo")
					}
					return demoCommand(c, stdout, stderr)
				},
			},
			{
				Name:      "merge",
				Usage:     "merge the results of a sharded run (--shard I/N) into the whole run's result",
				ArgsUsage: "SHARD.json...",
				Flags:     mergeFlags(),
				HideHelp:  true,
				Action:    func(c *cli.Context) error { return mergeCommand(c, stdout) },
			},
			{
				Name:      "compare",
				Usage:     "compare saved results (-o) side by side against the first, or a --history of runs",
				ArgsUsage: "BASELINE.json CANDIDATE.json...",
				Flags:     compareFlags(),
				HideHelp:  true,
				Action:    func(c *cli.Context) error { return compareCommand(c, stdout) },
			},
			{
				Name:      "report",
				Usage:     "write saved results (-o) as one HTML page, side by side against the first when several",
				ArgsUsage: "RESULT.json... --html FILE",
				Flags:     reportFlags(),
				HideHelp:  true,
				Action:    reportCommand,
			},
			capacityCommandDef(stdout, stderr, env),
			replayCommandDef(stdout, stderr, env),
			urlsCommand(stdout, stderr),
			completionCommandDef(stdout),
			manCommandDef(stdout),
			schemaCommandDef(stdout),
			docsCommandDef(stdout),
			{
				Name:      "help",
				Usage:     "show the options, or a command's (webload help urls import)",
				ArgsUsage: "[COMMAND...]",
				// With the flag defined, "help --help" parses; urfave/cli then answers it with
				// the App's help before Action runs, as it does for a command named help.
				Flags:    []cli.Flag{helpFlag()},
				HideHelp: true,
				Action:   func(c *cli.Context) error { return showHelpOf(c, c.Args().Slice()) },
			},
		},
		// urfave/cli would print the whole help on a usage error; one line is enough.
		OnUsageError: onUsageError,
		// Exit codes are chosen in main, never inside the library.
		ExitErrHandler: func(*cli.Context, error) {},
	}
	// Each command answers its own flag errors; without this, urfave/cli prints "Incorrect
	// Usage" and the command's help on standard output.
	forEachCommand(app.Commands, func(c *cli.Command) { c.OnUsageError = onUsageError })
	app.Setup()
	return app
}

func forEachCommand(cmds []*cli.Command, do func(*cli.Command)) {
	for _, c := range cmds {
		do(c)
		forEachCommand(c.Subcommands, do)
	}
}

// runApp runs the command line args (args[0] is the program name) after putting siege-style
// arguments into the shape the flag parser accepts.
func runApp(ctx context.Context, args []string, stdout, stderr io.Writer, env lookupEnv) error {
	return runCLI(ctx, newApp(stdout, stderr, env), args)
}

// runCLI is runApp for an App already built, which lets tests give it a standard input.
func runCLI(ctx context.Context, app *cli.App, args []string) error {
	if n := len(args); n > 1 && args[n-1] == completionMarker {
		return complete(app, args[1:n-1], app.Writer)
	}
	// Find the (sub)command the arguments name, whose flags decide what takes a value.
	head, flags, cmds := 1, app.Flags, app.Commands
	for head < len(args) {
		cmd := findCommand(cmds, args[head])
		if cmd == nil {
			break
		}
		head, flags, cmds = head+1, cmd.Flags, cmd.Subcommands
	}
	if len(args) < head {
		return app.RunContext(ctx, args)
	}
	norm := append([]string{}, args[:head]...)
	norm = append(norm, normalizeArgs(args[head:], valueFlags(flags))...)
	if err := checkLogFlag(norm[head:], flags); err != nil {
		return err
	}
	err := app.RunContext(ctx, norm)
	if head == 1 && len(args) > 1 {
		err = withCommandHint(err, args[1], app.Commands)
	}
	return err
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// showHelpOf prints the help of the command named by path ("urls", "import"), or the App's
// when path is empty. It runs the App again with path and --help, so the help reads exactly as
// "webload urls import --help" does, with the names urfave/cli gives a command only once it runs.
func showHelpOf(c *cli.Context, path []string) error {
	if len(path) == 0 {
		return cli.ShowAppHelp(c)
	}
	cmds := c.App.Commands
	for i, name := range path {
		cmd := findCommand(cmds, name)
		if cmd == nil {
			return usagef("help: no command %q%s; see webload --help", strings.Join(path[:i+1], " "),
				didYouMean(closeNames(name, commandNames(cmds))))
		}
		cmds = cmd.Subcommands
	}
	args := append(append([]string{c.App.Name}, path...), "--help")
	return c.App.RunContext(c.Context, args)
}

func helpFlag() *cli.BoolFlag {
	return &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show the options"}
}
