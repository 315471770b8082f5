package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// urfave/cli's App.ToMan goes through Markdown, which takes "<FILE" and "p95<800ms, x>=1" for
// HTML and drops them, and it lists the run's options twice (webload's and run's); the page is
// written here in roff instead, with the options under the help's headings.

func manCommandDef(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:     "man",
		Usage:    "print the manual page (roff): webload man > webload.1; man ./webload.1",
		Flags:    []cli.Flag{helpFlag()},
		HideHelp: true,
		Action: func(c *cli.Context) error {
			_, err := io.WriteString(stdout, manPage(c.App))
			return stdoutErr(err)
		},
	}
}

// manPage is the manual page of app, section 1, in roff's man macros.
func manPage(app *cli.App) string {
	var b strings.Builder
	name := strings.ToUpper(app.Name)
	fmt.Fprintf(&b, ".TH %s 1 \"\" \"%s %s\" \"User Commands\"\n", name, app.Name, roffEscape(app.Version))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", app.Name, roffEscape(app.Usage))
	b.WriteString(".SH SYNOPSIS\n.nf\n")
	for _, line := range strings.Split(app.UsageText, "\n") {
		b.WriteString(roffText(strings.TrimSpace(line)) + "\n")
	}
	b.WriteString(".fi\n.SH OPTIONS\n")
	writeManFlags(&b, flagGroupsOf(app.VisibleFlagCategories(), app.VisibleFlags()), "SS")
	b.WriteString(".SH COMMANDS\n")
	writeManCommands(&b, app, nil, app.Commands)
	b.WriteString(".SH SEE ALSO\n")
	b.WriteString(roffText("webload --help, and webload COMMAND --help for a command's options, wrapped to the terminal.") + "\n")
	return b.String()
}

// writeManCommands writes a subsection per command (and subcommand) with the options that are
// its own: those it shares with the run are described once, under OPTIONS.
func writeManCommands(b *strings.Builder, app *cli.App, path []string, cmds []*cli.Command) {
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		words := append(append([]string{app.Name}, path...), c.Name)
		fmt.Fprintf(b, ".SS %s\n", roffText(strings.Join(append(words, c.ArgsUsage), " ")))
		b.WriteString(roffText(c.Usage) + "\n")
		var own []cli.Flag
		shared := false
		for _, f := range c.VisibleFlags() {
			if f.Names()[0] == "help" {
				continue // every command has it
			}
			if isAppFlag(app, f) {
				shared = true
			} else {
				own = append(own, f)
			}
		}
		if shared {
			b.WriteString(".PP\n" + roffText("It also takes the options above that "+strings.Join(words, " ")+" --help lists.") + "\n")
		}
		writeManFlags(b, []flagGroup{{flags: own}}, "")
		writeManCommands(b, app, append(path, c.Name), c.Subcommands)
	}
}

// isAppFlag tells whether the App has f, with the same name and text: one of the run's
// options, which run and capacity take too (merge's --output, say, is another option).
func isAppFlag(app *cli.App, f cli.Flag) bool {
	return slices.ContainsFunc(app.Flags, func(g cli.Flag) bool { return g.String() == f.String() })
}

// writeManFlags writes each flag as a tagged paragraph, the groups under headings of the given
// macro ("SS") when they have names.
func writeManFlags(b *strings.Builder, groups []flagGroup, heading string) {
	for _, g := range groups {
		if g.name != "" && heading != "" {
			fmt.Fprintf(b, ".%s %s\n", heading, roffText(g.name))
		}
		for _, f := range g.flags {
			e := newFlagEntry(f)
			fmt.Fprintf(b, ".TP\n\\fB%s\\fR\n%s\n", roffEscape(strings.TrimSpace(e.names)), roffText(e.usage))
		}
	}
}

// flagGroupsOf is the flags under their headings in the help's order, or all of them in one
// group when none has a heading.
func flagGroupsOf(cats []cli.VisibleFlagCategory, flags []cli.Flag) []flagGroup {
	if len(cats) == 0 {
		return []flagGroup{{flags: flags}}
	}
	return orderCategories(cats)
}

// roffEscape keeps s literal in roff: a backslash starts an escape, and "-" is written as the
// minus sign so that options copied from the page work.
func roffEscape(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// roffText is s escaped as a line of text: a line starting with "." or "'" would be a request.
func roffText(s string) string {
	s = roffEscape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
