package gate

import (
	"fmt"
	"slices"

	"github.com/webload/webload/stats"
)

// liveFigures are the figures a Window keeps, which --abort-on can judge while a run goes,
// besides any percentile, which it reads from its histogram (see live). Read-only.
var liveFigures = []string{
	"error_rate", "availability", "failed", "transactions", "successful", "requests",
	"rtime", "trate", "longest", "p50", "p90", "p95", "p99", "p99.9", "max",
}

// live tells whether a Window measures f.
func live(f stats.Figure) bool {
	return f.Percentile > 0 || slices.Contains(liveFigures, f.Name)
}

// ParseLiveGate parses an --abort-on expression: an --assert gate (see ParseGate) on a figure
// that a Window keeps, over the whole run rather than one URL. Errors are *GateError.
func ParseLiveGate(expr string) (Gate, error) {
	g, err := ParseGate(expr)
	if err != nil {
		return Gate{}, err
	}
	if g.URL != "" {
		return Gate{}, &GateError{Expr: expr, Column: 1, Msg: "a gate judged during the run is on the whole run, not on url:" + g.URL}
	}
	if m, _ := stats.LookupFigure(g.Metric); !live(m) {
		return Gate{}, &GateError{Expr: expr, Column: 1, Msg: fmt.Sprintf("%s is not measured during the run; use %s",
			g.Metric, stats.FigureNames(live))}
	}
	return g, nil
}
