package dbload

import (
	"fmt"
	"io"
	"time"
)

// SlowSide is a compared statement's slow calls on one side of a comparison.
type SlowSide struct {
	// Calls counts its slow calls, at least; Exact is set when the count is exact.
	Calls int64 `json:"calls"`
	Exact bool  `json:"exact"`
	// Max is its slowest call; MaxFromBefore is set when it may be older than the run.
	Max           *time.Duration `json:"max_ns,omitempty"`
	MaxFromBefore bool           `json:"max_from_before,omitempty"`
}

// add pools a database's statement in.
func (s *SlowSide) add(st Statement) {
	s.Calls += st.SlowCalls
	s.Exact = s.Exact && st.SlowExact
	if st.Max != nil && (s.Max == nil || *st.Max > *s.Max) {
		v := *st.Max
		s.Max, s.MaxFromBefore = &v, st.MaxFromBefore
	}
}

// slowOn says on which side a statement had slow calls.
func slowOn(base, cand SlowSide) string {
	switch {
	case base.Calls > 0 && cand.Calls > 0:
		return OnBoth
	case base.Calls > 0:
		return OnBase
	case cand.Calls > 0:
		return OnCandidate
	}
	return ""
}

// writeSlow lists the statements slow on either side, their slow calls and slowest call on
// both, and says which were slow on one side only. It writes nothing when a side's result
// did not judge its statements (saved before --db-slow).
func (c *StatementsComparison) writeSlow(w io.Writer) {
	if c.BaseSlowThreshold <= 0 || c.SlowThreshold <= 0 {
		return
	}
	limit := c.SlowThreshold.String()
	if c.BaseSlowThreshold != c.SlowThreshold {
		limit = fmt.Sprintf("%s on %q, %s on %q", c.BaseSlowThreshold, c.Base, c.SlowThreshold, c.Label)
	}
	var slow []StatementChange
	for _, s := range c.Statements {
		if s.SlowOn != "" {
			slow = append(slow, s)
		}
	}
	if len(slow) == 0 {
		fmt.Fprintf(w, "  Slow statements (a call over %s): none on either side\n", limit)
		return
	}
	fmt.Fprintf(w, "  Slow statements (a call over %s; ≥: at least, ≤: the slowest may be older than the run):\n", limit)
	fmt.Fprintf(w, "    %-16s %-23s  %s\n", "slow calls", "max ms", "statement (normalised)")
	for _, s := range slow {
		where := ""
		switch s.SlowOn {
		case OnBase:
			where = fmt.Sprintf("  [slow on %q only]", c.Base)
		case OnCandidate:
			where = fmt.Sprintf("  [slow on %q only]", c.Label)
		}
		fmt.Fprintf(w, "    %-16s %-23s  %s%s\n",
			sideSlow(s.BaseSlow, s.On != OnCandidate)+" -> "+sideSlow(s.Slow, s.On != OnBase),
			sideMax(s.BaseSlow, s.On != OnCandidate)+" -> "+sideMax(s.Slow, s.On != OnBase),
			compareText(s), where)
	}
}

func sideSlow(s SlowSide, ran bool) string {
	if !ran {
		return "-"
	}
	return slowCount(s.Calls, s.Exact)
}

func sideMax(s SlowSide, ran bool) string {
	if !ran {
		return "-"
	}
	return maxText(s.Max, s.MaxFromBefore)
}
