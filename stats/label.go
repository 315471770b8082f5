package stats

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Label names result i of a list, as the compare table, the HTML report and the JUnit suite
// show it: its --label, else its place, "run 1" for the first, so that unlabelled results still
// tell apart. The label is Printable: a result saved elsewhere cannot colour the terminal,
// rewrite a line or start a CI log line of its own.
func Label(r *Report, i int) string {
	if r.Label != "" {
		return Printable(r.Label)
	}
	return "run " + strconv.Itoa(i+1)
}

// Printable escapes what a terminal, a CI log or an XML reader would act on rather than show:
// C0 controls (newline and tab included, as \n, \r, \t, or \xNN), DEL, C1 controls (\u0085)
// and bytes that are not UTF-8 (\xNN). Everything else,
// backslashes included, is kept as it is, so that escaping twice changes nothing and every
// output that prints a label (text, Markdown, JUnit, HTML, verdict lines) escapes it once, here.
func Printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case escapedRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || escapedRune(r) || r == utf8.RuneError && n == 1 {
			return true
		}
		i += n
	}
	return false
}

// escapedRune tells the runes above ASCII that Printable escapes: the C1 controls (U+009B is
// a terminal's one-character CSI).
func escapedRune(r rune) bool {
	return r >= 0x80 && r < 0xa0
}

// RequestURI is the path and query of an absolute URL, as written.
func RequestURI(abs string) string {
	rest := abs
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return "/"
}
