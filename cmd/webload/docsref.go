package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// The option reference, docs/options.md, is written by `webload docs options` from the same
// flag definitions that --help and the man page read, and a test fails when the committed file
// differs, so the reference cannot drift from the command line. The command is hidden: it is
// for the project's docs, not for users, who have --help.

// optionsDocCommand is how docs/options.md is regenerated; the file and the test name it.
const optionsDocCommand = "go run ./cmd/webload docs options > docs/options.md"

func docsCommandDef(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "docs",
		Usage:     "write the documentation generated from the command line",
		ArgsUsage: "options",
		Hidden:    true,
		HideHelp:  true,
		Flags:     []cli.Flag{helpFlag()},
		Action:    docsGroup,
		Subcommands: []*cli.Command{{
			Name:     "options",
			Usage:    "print the option reference of every command in Markdown: " + optionsDocCommand,
			HideHelp: true,
			Flags:    []cli.Flag{helpFlag()},
			Action: func(c *cli.Context) error {
				_, err := io.WriteString(stdout, optionsMarkdown(c.App))
				return stdoutErr(err)
			},
		}},
	}
}

// docsGroup answers "webload docs" without a known subcommand, as urlsGroup does for urls:
// its help when asked for (or given nothing), else a usage error.
func docsGroup(c *cli.Context) error {
	args := c.Args().Slice()
	switch {
	case c.Bool("help") || len(args) == 0:
		return cli.ShowSubcommandHelp(c)
	case args[0] == "help":
		return showHelpOf(c, append([]string{"docs"}, args[1:]...))
	}
	return usagef("docs: no command %q%s; see webload docs --help", args[0],
		didYouMean(closeNames(args[0], commandNames(c.Command.Subcommands))))
}

// optionsMarkdown is docs/options.md: the App's options under the help's headings, then each
// visible command with the options that are its own, as the man page lays them out.
func optionsMarkdown(app *cli.App) string {
	var b strings.Builder
	b.WriteString("# Options\n\n")
	fmt.Fprintf(&b, "<!-- Generated from the command line's definitions by `%s`; edit the flags in cmd/webload, not this file. -->\n\n", optionsDocCommand)
	b.WriteString("Every option of every command, as `webload --help` and `webload COMMAND --help` list them,\n")
	b.WriteString("each with its default. The same options explained, with examples:\n")
	b.WriteString("[running.md](running.md); the first steps: the [README](../README.md).\n\n")
	b.WriteString("Commands:\n\n")
	fmt.Fprintf(&b, "- [`%s`](#%s): %s\n", app.Name, app.Name, markdownText(app.Usage))
	forEachVisible(app.Commands, nil, func(words []string, c *cli.Command) {
		heading := app.Name + " " + strings.Join(words, " ")
		fmt.Fprintf(&b, "- [`%s`](#%s): %s\n", heading, strings.ReplaceAll(heading, " ", "-"), markdownText(c.Usage))
	})

	fmt.Fprintf(&b, "\n## %s\n\n%s\n\n```\n%s\n```\n", app.Name, markdownText(app.Usage), app.UsageText)
	writeMarkdownFlags(&b, flagGroupsOf(app.VisibleFlagCategories(), app.VisibleFlags()))

	forEachVisible(app.Commands, nil, func(words []string, c *cli.Command) {
		name := app.Name + " " + strings.Join(words, " ")
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n```\n%s\n```\n", name, markdownText(c.Usage), strings.TrimSpace(name+" "+c.ArgsUsage))
		own, shared := splitAppFlags(app, c)
		if shared != nil {
			fmt.Fprintf(&b, "\nIt also takes the options of [`%s`](#%s) above", app.Name, app.Name)
			if len(shared) > 0 {
				fmt.Fprintf(&b, ", except %s", strings.Join(shared, ", "))
			}
			b.WriteString(".\n")
		}
		writeMarkdownFlags(&b, []flagGroup{{flags: own}})
	})
	return b.String()
}

// splitAppFlags sorts c's visible options into its own and the App's. A command that takes
// most of the App's options (run, capacity) is said to take them, with the names of those it
// does not take in missing (empty, not nil, when it takes them all); one that shares a few
// (merge's --per-url) lists them among its own, and missing is nil.
func splitAppFlags(app *cli.App, c *cli.Command) (own []cli.Flag, missing []string) {
	var shared []cli.Flag
	for _, f := range c.VisibleFlags() {
		switch {
		case f.Names()[0] == "help":
			// every command has it
		case isAppFlag(app, f):
			shared = append(shared, f)
		default:
			own = append(own, f)
		}
	}
	var appFlags []cli.Flag
	for _, f := range app.VisibleFlags() {
		if f.Names()[0] != "help" {
			appFlags = append(appFlags, f)
		}
	}
	if 2*len(shared) <= len(appFlags) {
		return append(own, shared...), nil
	}
	missing = []string{}
	for _, f := range appFlags {
		if !slices.ContainsFunc(shared, func(g cli.Flag) bool { return g.String() == f.String() }) {
			missing = append(missing, "`"+strings.TrimSpace(newFlagEntry(f).names)+"`")
		}
	}
	return own, missing
}

// forEachVisible calls do for every command and subcommand that is not hidden, in the help's
// order, with the words that name it ("urls", "import").
func forEachVisible(cmds []*cli.Command, path []string, do func([]string, *cli.Command)) {
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		words := append(append([]string{}, path...), c.Name)
		do(words, c)
		forEachVisible(c.Subcommands, words, do)
	}
}

// writeMarkdownFlags writes each group under a heading when it has a name, a flag a line.
func writeMarkdownFlags(b *strings.Builder, groups []flagGroup) {
	for _, g := range groups {
		if len(g.flags) == 0 {
			continue
		}
		if g.name != "" {
			fmt.Fprintf(b, "\n### %s\n", g.name)
		}
		b.WriteString("\n")
		for _, f := range g.flags {
			e := newFlagEntry(f)
			fmt.Fprintf(b, "- `%s`: %s\n", strings.TrimSpace(e.names), markdownText(e.usage))
		}
	}
}

// markdownEscaper keeps help text literal in Markdown: the options' texts hold "<FILE",
// "p95<800ms", "NUM[S|M|H]", "error_rate", "$JOB_COMPLETION_INDEX" and "body~\"REGEX\"",
// which GitHub would read as HTML, links, emphasis, maths or strikethrough.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "<", `\<`, "[", `\[`, "]", `\]`, "$", `\$`, "~", `\~`,
)

func markdownText(s string) string { return markdownEscaper.Replace(s) }
