package dbload

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
)

// StatementsTextRows is how many statements a run's text report lists; the JSON and the HTML
// report keep every one of the Top.
const StatementsTextRows = 10

// statementTextWidth is how much of a statement's text a line of the text report shows.
const statementTextWidth = 110

// Headline says in one line what the statements were: how many, whence, and what they cost per
// transaction; or why there are none.
func (s *Statements) Headline() string {
	if s.Unavailable != "" {
		return "not read: " + s.Unavailable
	}
	h := fmt.Sprintf("%d calls of %d statements (%s) in %s", s.Calls, s.Digests, s.Source, millis(s.Total))
	if tx := s.Transactions; tx > 0 {
		h += fmt.Sprintf(", per transaction %.2f calls in %s", float64(s.Calls)/float64(tx), millis(s.Total/time.Duration(tx)))
	}
	if s.Restarted {
		h += "; some counted again from zero during the run (a reset, or evicted for room): theirs count from then"
	}
	return h
}

// WriteRows writes the top statements, at most limit, then Other, one line each with its
// figures per transaction (when set), its totals and its text, indented by indent.
func (s *Statements) WriteRows(w io.Writer, indent string, limit int) {
	if s.Unavailable != "" {
		return
	}
	fmt.Fprintf(w, "%s%9s %10s %9s %11s %9s %9s  %s\n", indent, "calls/tx", "ms/tx", "calls", "total ms", "mean ms", "rows", "statement")
	row := func(st Statement, text string) {
		callsTx, msTx := "-", "-"
		if st.CallsPerTransaction != nil {
			callsTx = fmt.Sprintf("%.2f", *st.CallsPerTransaction)
			msTx = fmt.Sprintf("%.3f", ms(*st.TimePerTransaction))
		}
		fmt.Fprintf(w, "%s%9s %10s %9d %11.3f %9.3f %9d  %s\n", indent, callsTx, msTx, st.Calls, ms(st.Total), ms(st.Mean), st.Rows, text)
	}
	n := min(limit, len(s.List))
	for _, st := range s.List[:n] {
		text := OneLine(st.Text, statementTextWidth)
		if st.LowerBound {
			text = "(at least) " + text
		}
		row(st, text)
	}
	rest := s.Other
	restN := s.OtherDigests
	for _, st := range s.List[n:] {
		rest.Calls += st.Calls
		rest.Total += st.Total
		rest.Rows += st.Rows
		restN++
	}
	if restN > 0 || rest.Calls > 0 {
		rest.Mean = mean(rest.Total, rest.Calls)
		rest.CallsPerTransaction, rest.TimePerTransaction = nil, nil
		if tx := s.Transactions; tx > 0 {
			c := float64(rest.Calls) / float64(tx)
			t := rest.Total / time.Duration(tx)
			rest.CallsPerTransaction, rest.TimePerTransaction = &c, &t
		}
		row(rest, fmt.Sprintf("(the other %d statements)", restN))
	}
}

// OneLine is a statement's text on one line, its spaces collapsed, its control characters
// written \xNN (the text is the database's, which anyone who runs a statement writes: an
// escape sequence in a quoted name would reach the terminal), cut to width characters.
func OneLine(text string, width int) string {
	text = strings.Join(strings.Fields(text), " ")
	if strings.IndexFunc(text, unicode.IsControl) >= 0 {
		var b strings.Builder
		for _, r := range text {
			if unicode.IsControl(r) {
				fmt.Fprintf(&b, `\x%02x`, r)
				continue
			}
			b.WriteRune(r)
		}
		text = b.String()
	}
	if r := []rune(text); len(r) > width {
		return string(r[:width-1]) + "…"
	}
	return text
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func millis(d time.Duration) string { return fmt.Sprintf("%.3f ms", ms(d)) }
