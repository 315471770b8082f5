package gate

import (
	"math"

	"github.com/webload/webload/stats"
)

// GateVerdict is a Verdict as compare's JSON carries it (Comparison.Gates, Trend.Gates): the
// line the text prints after its table, with its parts, one per gate.
type GateVerdict struct {
	// Gate names the gate as the JUnit test case does (Verdict.Check): "v2: p95",
	// "content GET /about".
	Gate string `json:"gate"`
	// Figure is the canonical name of the figure judged; absent when the gate names none.
	Figure string `json:"figure,omitempty"`
	// Result is "ok", "failed" or "inconclusive".
	Result string `json:"result"`
	// Measured is the figure in its base unit (seconds, percent, ...); absent when nothing
	// could be measured.
	Measured *float64 `json:"measured,omitempty"`
	// Text is the line the text output prints.
	Text string `json:"text"`
}

// GateVerdicts are verdicts as compare's JSON carries them; nil for none.
func GateVerdicts(verdicts []stats.Verdict) []GateVerdict {
	var out []GateVerdict
	for _, v := range verdicts {
		g := GateVerdict{Gate: v.Check, Figure: v.Figure, Result: "ok", Text: v.Text}
		switch {
		case v.Inconclusive:
			g.Result = "inconclusive"
		case !v.Passed:
			g.Result = "failed"
		}
		if !math.IsNaN(v.Measured) && !math.IsInf(v.Measured, 0) {
			m := v.Measured
			g.Measured = &m
		}
		out = append(out, g)
	}
	return out
}
