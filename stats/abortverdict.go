package stats

import (
	"math"
	"time"
)

// AbortVerdicts are the verdicts of a run's --abort-on gates (from ParseLiveGate), one each in
// order, so that they are printed and written as JUnit with its --assert gates: the gate that
// fired (fired, the run's RunInfo.Abort; nil when none did) failed with the window's value,
// and the others passed, having held over no window of width (the run's --abort-window).
func AbortVerdicts(gates []Gate, width time.Duration, fired *Abort) []Verdict {
	out := make([]Verdict, 0, len(gates))
	for _, g := range gates {
		v := Verdict{Check: "--abort-on " + g.label(), Passed: true, Measured: math.NaN()}
		if m, ok := LookupFigure(g.Metric); ok {
			v.Figure = m.Name
		}
		if fired != nil && fired.Gate == g.label() {
			v.Passed, v.Measured = false, fired.Value
			v.Text = fired.String() + ": FAILED"
		} else {
			v.Text = v.Check + ": held over no " + width.String() + " window: ok"
		}
		out = append(out, v)
	}
	return out
}
