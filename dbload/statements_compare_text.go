package dbload

import (
	"fmt"
	"io"
)

// CompareTextRows is how many statements found on both sides the text of a comparison lists;
// the JSON keeps them all.
const CompareTextRows = 15

// contributorRows is how many statements the text names as the change's biggest contributors.
const contributorRows = 5

// WriteText writes the comparison as `webload compare` prints it: the whole per transaction,
// the statements on both sides (biggest change first), the ones on one side only, and the
// biggest contributors to the change in database time per transaction.
func (c *StatementsComparison) WriteText(w io.Writer) {
	fmt.Fprintf(w, "\nStatements, per transaction, %q -> %q: database time %.3f -> %.3f ms (%+.3f ms), calls %.2f -> %.2f\n",
		c.Base, c.Label, ms(c.BaseTime), ms(c.Time), ms(c.Change), c.BaseCalls, c.Calls)
	if c.BaseSource != c.Source {
		fmt.Fprintf(w, "  Note: the times are each engine's own: MySQL's span a statement's whole handling (parsing and "+
			"optimising in), PostgreSQL's its execution alone (parsing and planning out); the calls compare alike.\n")
	}
	fmt.Fprintf(w, "  %-16s %-21s %10s  %s\n", "calls/tx", "ms/tx", "change ms", "statement (normalised)")
	var base, cand []StatementChange
	n := 0
	for _, s := range c.Statements {
		switch s.On {
		case OnBase:
			base = append(base, s)
			continue
		case OnCandidate:
			cand = append(cand, s)
			continue
		}
		if n++; n > CompareTextRows {
			continue
		}
		fmt.Fprintf(w, "  %-16s %-21s %+10.3f  %s\n", fmt.Sprintf("%.2f -> %.2f", s.BaseCalls, s.Calls),
			fmt.Sprintf("%.3f -> %.3f", ms(s.BaseTime), ms(s.Time)), ms(s.Change), compareText(s))
	}
	if n > CompareTextRows {
		fmt.Fprintf(w, "  (%d more on both sides, in the JSON)\n", n-CompareTextRows)
	}
	c.writeOnly(w, c.Base, c.Label, base)
	c.writeOnly(w, c.Label, c.Base, cand)
	c.writeSlow(w)
	top := c.Contributors(contributorRows)
	if len(top) == 0 || c.Change == 0 {
		return
	}
	fmt.Fprintf(w, "  Biggest contributors to the change in database time per transaction (%+.3f ms):\n", ms(c.Change))
	for _, s := range top {
		fmt.Fprintf(w, "    %+9.3f ms %5.0f %%  %s\n", ms(s.Change), 100*float64(s.Change)/float64(c.Change), compareText(s))
	}
}

// writeOnly lists the statements of side only, with their figures there.
func (c *StatementsComparison) writeOnly(w io.Writer, side, other string, only []StatementChange) {
	if len(only) == 0 {
		fmt.Fprintf(w, "  Only on %q: none\n", side)
		return
	}
	fmt.Fprintf(w, "  Only on %q (calls/tx, ms/tx):\n", side)
	for _, s := range only {
		calls, t := s.Calls, s.Time
		if s.On == OnBase {
			calls, t = s.BaseCalls, s.BaseTime
		}
		note := ""
		if s.MaybeOther {
			note = fmt.Sprintf(" (or among %q's other statements)", other)
		}
		fmt.Fprintf(w, "    %8.2f %9.3f  %s%s\n", calls, ms(t), compareText(s), note)
	}
}

// compareText is a compared statement's line text: its normalised form, marked when a figure
// is a series' lower bound.
func compareText(s StatementChange) string {
	t := s.Key
	if s.Prefix {
		t = "(matched on its start: MySQL cut its digest) " + t
	}
	if s.LowerBound {
		t = "(at least) " + t
	}
	return OneLine(t, statementTextWidth)
}
