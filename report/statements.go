package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/webload/webload/dbload"
)

// statementsTable lists each candidate's statements beside the baseline's, per transaction,
// as compare's Statements section does, biggest change in time first; the note gives each
// candidate's database time per transaction and its biggest contributors.
func statementsTable(cmps []dbload.StatementsComparison) (table, string) {
	t := table{Sortable: true, Columns: []column{
		{Title: "Run"}, {Title: "Statement (normalised)", Sticky: true},
		{Title: "on", Hint: "both sides, or the one it ran on; \"or other\": the other side summed some statements, it may be one"},
		{Title: "baseline calls/tx", Num: true}, {Title: "calls/tx", Num: true},
		{Title: "baseline ms/tx", Num: true}, {Title: "ms/tx", Num: true},
		{Title: "change ms/tx", Num: true, Hint: "its part in the change of database time per transaction"},
		{Title: "baseline slow calls", Num: true, Hint: "calls over the baseline's --db-slow; ≥: at least"},
		{Title: "slow calls", Num: true, Hint: "calls over the run's --db-slow; ≥: at least"},
		{Title: "baseline max ms", Num: true, Hint: "its slowest call; ≤: the slowest the database kept, which may be older than the run"},
		{Title: "max ms", Num: true},
	}}
	var notes []string
	for _, c := range cmps {
		for _, s := range c.Statements {
			on := map[string]string{dbload.OnBoth: "both", dbload.OnBase: "baseline only", dbload.OnCandidate: c.Label + " only"}[s.On]
			if s.MaybeOther {
				on += " (or other)"
			}
			key := s.Key
			if s.Prefix {
				key = "(matched on its start: MySQL cut its digest) " + key
			}
			if s.LowerBound {
				key = "(at least) " + key
			}
			switch s.SlowOn {
			case dbload.OnBase:
				on += ", slow on the baseline only"
			case dbload.OnCandidate:
				on += ", slow on " + c.Label + " only"
			case dbload.OnBoth:
				on += ", slow on both"
			}
			t.Rows = append(t.Rows, []cell{text(c.Label), text(key), text(on),
				figure(s.BaseCalls), figure(s.Calls), msCell(s.BaseTime), msCell(s.Time), changeMs(s.Change),
				slowCell(s.BaseSlow, c.BaseSlowThreshold > 0 && s.On != dbload.OnCandidate && s.Key != dbload.OtherKey),
				slowCell(s.Slow, c.SlowThreshold > 0 && s.On != dbload.OnBase && s.Key != dbload.OtherKey),
				maxCell(s.BaseSlow.Max, s.BaseSlow.MaxFromBefore), maxCell(s.Slow.Max, s.Slow.MaxFromBefore)})
		}
		note := fmt.Sprintf("%s: database time per transaction %.3f → %.3f ms (%+.3f ms), calls %.2f → %.2f.",
			c.Label, msOf(c.BaseTime), msOf(c.Time), msOf(c.Change), c.BaseCalls, c.Calls)
		var top []string
		for _, s := range c.Contributors(3) {
			top = append(top, fmt.Sprintf("%s (%+.3f ms)", dbload.OneLine(s.Key, 80), msOf(s.Change)))
		}
		if len(top) > 0 {
			note += " Most of the change: " + strings.Join(top, "; ") + "."
		}
		notes = append(notes, note)
	}
	return t, strings.Join(notes, " ")
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// msCell is a time per transaction in milliseconds.
func msCell(d time.Duration) cell { return figure(msOf(d)) }

// changeMs is a change in time, red when it grew.
func changeMs(d time.Duration) cell {
	c := cell{Text: fmt.Sprintf("%+.3f", msOf(d)), Key: msOf(d)}
	switch {
	case d > 0:
		c.Class = "worse"
	case d < 0:
		c.Class = "better"
	}
	return c
}

// slowCell is a side's slow calls of a statement, "≥" before a lower bound, red when any;
// "-" where they were not counted (the statement did not run there, or the side's result has
// no threshold).
func slowCell(s dbload.SlowSide, counted bool) cell {
	if !counted {
		return none()
	}
	c := cell{Text: fmt.Sprint(s.Calls), Key: float64(s.Calls)}
	if !s.Exact {
		c.Text = "≥" + c.Text
	}
	if s.Calls > 0 {
		c.Class = "worse"
	}
	return c
}
