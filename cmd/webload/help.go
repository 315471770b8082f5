package main

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// The run's flags are many; --help groups them under these headings, in this order.
const (
	catLoad        = "Load"
	catRequests    = "URLs and requests"
	catBrowser     = "Browser-like visits"
	catOutput      = "Output"
	catGates       = "Gates and comparison"
	catDistributed = "Distributed runs"
	catDiagnostics = "Diagnostics"
)

// flagCategories is the order of the headings in --help. urfave/cli sorts them by name, which
// would put "Browser-like visits" before "Load"; printHelp lists them in this order.
func flagCategories() []string {
	return []string{catLoad, catRequests, catBrowser, catOutput, catGates, catDistributed, catDiagnostics}
}

// Help is wrapped to the terminal, but never wider than maxHelpWidth: longer lines are hard to
// read. Off a terminal (a pipe, a file) it is defaultHelpWidth wide; below minHelpWidth the
// flags' column layout no longer fits, so a narrower terminal gets long lines.
const (
	defaultHelpWidth = 80
	maxHelpWidth     = 100
	minHelpWidth     = 40
)

// helpWriter is the App's standard output, which also knows how wide help may be: urfave/cli
// hands its help printer the App's writer and nothing else of the App.
type helpWriter struct {
	io.Writer
	width func() int
}

// helpWidth is the width of the help on stdout: $COLUMNS when set (the user's wish, which also
// reaches a pipe), else the terminal's width, else 80; at most 100, at least 40.
func helpWidth(stdout io.Writer, env lookupEnv) int {
	w := defaultHelpWidth
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			w = cols
		}
	}
	if env != nil {
		if v, ok := env("COLUMNS"); ok {
			if cols, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && cols > 0 {
				w = cols
			}
		}
	}
	return min(max(w, minHelpWidth), maxHelpWidth)
}

// urfave/cli offers its help printer only as a package-level hook. printHelp keeps no state
// (the width travels with the writer), so setting it once, before any App runs, is safe for
// Apps running side by side.
func init() { cli.HelpPrinter = printHelp }

// printHelp renders one of urfave/cli's help templates with the flags laid out by flagHelp (in
// flagCategories order, wrapped with a hanging indent) and the other text wrapped by the
// library's own wrap function, then wraps any line still too wide (a command's usage line).
func printHelp(w io.Writer, templ string, data any) {
	width := defaultHelpWidth
	if hw, ok := w.(helpWriter); ok {
		width = hw.width()
	}
	templ = strings.ReplaceAll(templ, `{{template "visibleFlagCategoryTemplate" .}}`, `{{flagCategoryHelp .VisibleFlagCategories}}`)
	templ = strings.ReplaceAll(templ, `{{template "visibleFlagTemplate" .}}`, `{{flagListHelp .VisibleFlags}}`)
	var buf bytes.Buffer
	cli.HelpPrinterCustom(&buf, templ, data, map[string]any{
		"wrapAt": func() int { return width },
		"flagCategoryHelp": func(cats []cli.VisibleFlagCategory) string {
			return flagHelp(orderCategories(cats), width)
		},
		"flagListHelp": func(flags []cli.Flag) string {
			return flagHelp([]flagGroup{{flags: flags}}, width)
		},
	})
	io.WriteString(w, wrapLongLines(buf.String(), width))
}

// flagGroup is the flags under one heading of the help ("" for none).
type flagGroup struct {
	name  string
	flags []cli.Flag
}

// orderCategories puts the flags without a heading first, then the headings in flagCategories
// order, then any other heading by name (a new category shows, if out of place).
func orderCategories(cats []cli.VisibleFlagCategory) []flagGroup {
	rank := func(name string) int {
		if name == "" {
			return -1
		}
		if i := slices.Index(flagCategories(), name); i >= 0 {
			return i
		}
		return len(flagCategories())
	}
	var groups []flagGroup
	for _, c := range cats {
		g := flagGroup{name: c.Name()}
		for _, f := range c.Flags() {
			g.flags = append(g.flags, f)
		}
		groups = append(groups, g)
	}
	slices.SortStableFunc(groups, func(a, b flagGroup) int {
		if d := rank(a.name) - rank(b.name); d != 0 {
			return d
		}
		return strings.Compare(a.name, b.name)
	})
	return groups
}
