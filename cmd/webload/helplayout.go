package main

import (
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
)

// Layout of a flag in the help: its names from column helpIndent, what it does from a column
// shared by the whole help, wrapped with a hanging indent to that column. Names wider than
// namesCap (a third of the width at most) stand on a line of their own, the text below them,
// so that one long placeholder does not squeeze every flag's text.
const (
	helpIndent = 3
	helpGap    = 2
)

// flagEntry is one flag as the help shows it: "-c, --concurrent N" and what it does, its
// default included.
type flagEntry struct{ names, usage string }

// flagHelp lays out the groups of flags, each under its heading, as urfave/cli's category
// template does (a blank line before each group), within width runes where words allow.
func flagHelp(groups []flagGroup, width int) string {
	var all []flagEntry
	entries := make([][]flagEntry, len(groups))
	for i, g := range groups {
		for _, f := range g.flags {
			entries[i] = append(entries[i], newFlagEntry(f))
		}
		all = append(all, entries[i]...)
	}
	namesCap := width*3/10 - helpIndent
	names := 0
	for _, e := range all {
		if n := utf8.RuneCountInString(e.names); n <= namesCap {
			names = max(names, n)
		}
	}
	col := helpIndent + names + helpGap
	pad := strings.Repeat(" ", helpIndent)
	var b strings.Builder
	for i, g := range groups {
		b.WriteString("\n")
		if g.name != "" {
			b.WriteString(pad + g.name + "\n\n")
		}
		for _, e := range entries[i] {
			// A long-only flag's names start with spaces, which hangingWrap would drop.
			lead := len(e.names) - len(strings.TrimLeft(e.names, " "))
			names := strings.Repeat(" ", lead) + hangingWrap(e.names[lead:], helpIndent+lead, helpIndent+4, width)
			b.WriteString(pad + names)
			at := helpIndent + utf8.RuneCountInString(names)
			if e.usage != "" {
				if strings.Contains(names, "\n") || at+helpGap > col {
					b.WriteString("\n")
					at = 0
				}
				b.WriteString(strings.Repeat(" ", col-at))
				b.WriteString(hangingWrap(e.usage, col, col, width))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// newFlagEntry words f as "-c, --concurrent N" (short name first, as siege and GNU tools do;
// a long-only flag indented to line up with the long names), with urfave/cli's usage and
// default. A repeatable flag's "[ --header HEADER ]" is left out: its text says so.
func newFlagEntry(f cli.Flag) flagEntry {
	names, usage, _ := strings.Cut(f.String(), "\t")
	usage = strings.TrimSuffix(usage, " (default: false)") // a switch is off unless given
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return flagEntry{names, usage}
	}
	var short, long []string
	for _, n := range f.Names() {
		if utf8.RuneCountInString(n) == 1 {
			short = append(short, "-"+n)
		} else {
			long = append(long, "--"+n)
		}
	}
	placeholder := ""
	if df.TakesValue() {
		placeholder = " " + valuePlaceholder(df.GetUsage())
	}
	switch {
	case len(long) == 0:
		names = strings.Join(short, ", ") + placeholder
	case len(short) == 0:
		names = "    " + strings.Join(long, ", ") + placeholder
	default:
		names = strings.Join(short, ", ") + ", " + strings.Join(long, ", ") + placeholder
	}
	return flagEntry{names, usage}
}

// valuePlaceholder is the name a flag's usage gives its value between back quotes, as
// urfave/cli reads it, or "value" as urfave/cli says when there is none.
func valuePlaceholder(usage string) string {
	_, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "value"
	}
	name, _, ok := strings.Cut(rest, "`")
	if !ok || name == "" {
		return "value"
	}
	return name
}

// hangingWrap breaks text at spaces into lines that end by column width, the first line
// starting at column first (the caller has written up to it) and the others at column indent.
// A word too long for any line stays whole, on a line of its own.
func hangingWrap(text string, first, indent, width int) string {
	words := strings.Fields(text)
	if len(words) == 0 {
		return ""
	}
	var b strings.Builder
	at := first
	for i, w := range words {
		n := utf8.RuneCountInString(w)
		switch {
		case i == 0:
		case at+1+n <= width:
			b.WriteString(" ")
			at++
		default:
			b.WriteString("\n" + strings.Repeat(" ", indent))
			at = indent
		}
		b.WriteString(w)
		at += n
	}
	return b.String()
}

// wrapLongLines wraps each line of text wider than width at spaces, its continuations indented
// three more than it: the help's parts that no template wraps, such as a command's usage line.
func wrapLongLines(text string, width int) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if utf8.RuneCountInString(line) <= width {
			continue
		}
		body := strings.TrimLeft(line, " ")
		lead := len(line) - len(body)
		lines[i] = line[:lead] + hangingWrap(body, lead, lead+3, width)
	}
	return strings.Join(lines, "\n")
}
