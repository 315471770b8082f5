package gate

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/webload/webload/stats"
)

// AbortVerdicts are the verdicts of a run's --abort-on gates (from ParseLiveGate), one each in
// order, so that they are printed and written as JUnit with its --assert gates: the gate that
// fired (fired, the run's RunInfo.Abort; nil when none did) failed with the window's value,
// and the others passed, having held over no window of width (the run's --abort-window).
func AbortVerdicts(gates []Gate, width time.Duration, fired *stats.Abort) []stats.Verdict {
	out := make([]stats.Verdict, 0, len(gates))
	for _, g := range gates {
		v := stats.Verdict{Check: "--abort-on " + g.Label(), Passed: true, Measured: math.NaN()}
		if m, ok := stats.LookupFigure(g.Metric); ok {
			v.Figure = m.Name
		}
		if fired != nil && fired.Gate == g.Label() {
			v.Passed, v.Measured = false, fired.Value
			v.Text = AbortText(*fired) + ": FAILED"
		} else {
			v.Text = v.Check + ": held over no " + width.String() + " window: ok"
		}
		out = append(out, v)
	}
	return out
}

// String says which gate fired, with the window's value in the gate's unit, e.g.
// "--abort-on p95>1s: p95 was 2991.000 ms over the last 2s, at 5.3 s into the run".
func AbortText(a stats.Abort) string {
	value := strconv.FormatFloat(a.Value, 'f', -1, 64)
	name := a.Gate
	if g, err := ParseGate(a.Gate); err == nil {
		if m, ok := stats.LookupFigure(g.Metric); ok {
			scale, prec, unit := stats.Display(m, a.Value)
			name, value = m.Name, strconv.FormatFloat(a.Value*scale, 'f', prec, 64)+unit
		}
	}
	return fmt.Sprintf("--abort-on %s: %s was %s over the last %s, at %.1f s into the run",
		a.Gate, name, value, stats.DurationOf(a.Window), a.At)
}
