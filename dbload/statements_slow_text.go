package dbload

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"
)

// SlowHeadline says in one line how many statements had a call over the slow threshold, and
// how many such calls at least; "" when none was judged.
func (s *Statements) SlowHeadline() string {
	if s.Unavailable != "" || s.SlowThreshold <= 0 {
		return ""
	}
	if s.SlowStatements == 0 {
		return fmt.Sprintf("none had a call over %s", s.SlowThreshold)
	}
	h := fmt.Sprintf("%d had a call over %s, %s slow calls", s.SlowStatements, s.SlowThreshold, slowCount(s.SlowCalls, s.slowExact()))
	if maybe := s.maybeSlow(); maybe > 0 {
		h += fmt.Sprintf("; %d more had one before the run and may have in it (their slowest call is not the run's own)", maybe)
	}
	return h
}

// slowExact tells whether every slow count of the section is exact.
func (s *Statements) slowExact() bool {
	if s.Other.SlowCalls > 0 {
		return false // the others' are summed; their exactness is not kept
	}
	for _, st := range s.List {
		if !st.SlowExact {
			return false
		}
	}
	return true
}

// maybeSlow counts the listed statements with no slow call counted, but a slowest call over the
// threshold that may be older than the run: PostgreSQL's pg_stat_statements and MySQL's digests
// keep one slowest call since they were reset.
func (s *Statements) maybeSlow() int {
	n := 0
	for _, st := range s.List {
		if st.SlowCalls == 0 && !st.SlowExact && st.MaxFromBefore && st.Max != nil && *st.Max > s.SlowThreshold {
			n++
		}
	}
	return n
}

// WriteSlow writes the slow statements, at most limit, most slow calls first, one line each
// with its slow calls ("≥" when a lower bound), calls, slowest and mean call ("≤" when the
// slowest may be older than the run) and text, indented by indent.
func (s *Statements) WriteSlow(w io.Writer, indent string, limit int) {
	if s.Unavailable != "" || s.SlowThreshold <= 0 || s.SlowStatements == 0 {
		return
	}
	var slow []Statement
	for _, st := range s.List {
		if st.SlowCalls > 0 {
			slow = append(slow, st)
		}
	}
	slices.SortStableFunc(slow, func(a, b Statement) int { return cmp.Compare(b.SlowCalls, a.SlowCalls) })
	fmt.Fprintf(w, "%s%9s %9s %11s %9s  %s\n", indent, "slow", "calls", "max ms", "mean ms", "statement")
	for _, st := range slow[:min(limit, len(slow))] {
		fmt.Fprintf(w, "%s%9s %9d %11s %9.3f  %s\n", indent, slowCount(st.SlowCalls, st.SlowExact), st.Calls,
			maxText(st.Max, st.MaxFromBefore), ms(st.Mean), OneLine(st.Text, statementTextWidth))
	}
	if rest := len(slow) - limit; rest > 0 || s.Other.SlowCalls > 0 {
		n := s.SlowStatements - min(limit, len(slow))
		fmt.Fprintf(w, "%s(%d more slow statements, in the JSON or summed with the others)\n", indent, n)
	}
}

// slowCount is a count of slow calls, "≥" before it when it is a lower bound.
func slowCount(n int64, exact bool) string {
	if exact {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("≥%d", n)
}

// maxText is a slowest call in milliseconds, "≤" before it when it may be older than the run;
// "-" when the database keeps none.
func maxText(d *time.Duration, before bool) string {
	switch {
	case d == nil:
		return "-"
	case before:
		return fmt.Sprintf("≤%.3f", ms(*d))
	}
	return fmt.Sprintf("%.3f", ms(*d))
}
