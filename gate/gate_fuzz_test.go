package gate

import (
	"math"
	"testing"
	"unicode/utf8"

	"github.com/webload/webload/stats"
)

// FuzzParseGate checks what every caller relies on: no panic, errors that point inside the
// expression, and gates that are well formed and parse back to themselves, both from the
// expression and from the written form a gate built by hand is named by.
func FuzzParseGate(f *testing.F) {
	for _, c := range parseCases() {
		f.Add(c.expr)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		g, err := ParseGate(expr)
		if err != nil {
			ge, ok := err.(*GateError)
			if !ok {
				t.Fatalf("ParseGate(%q) error %T %v; want a *GateError", expr, err, err)
			}
			if n := utf8.RuneCountInString(expr); ge.Column < 1 || ge.Column > n+1 {
				t.Fatalf("ParseGate(%q) error at column %d, outside 1..%d: %v", expr, ge.Column, n+1, err)
			}
			if ge.Expr != expr || ge.Msg == "" {
				t.Fatalf("ParseGate(%q) error names %q with message %q", expr, ge.Expr, ge.Msg)
			}
			return
		}
		if !validGateOp(g.Op) {
			t.Fatalf("ParseGate(%q) op %q", expr, g.Op)
		}
		m, ok := stats.LookupFigure(g.Metric)
		if !ok || m.Name != g.Metric {
			t.Fatalf("ParseGate(%q) metric %q is not canonical", expr, g.Metric)
		}
		if (g.URL == "" && !stats.PerRun(m)) || (g.URL != "" && !stats.PerURL(m)) {
			t.Fatalf("ParseGate(%q) accepted %s where it is not kept (url %q)", expr, g.Metric, g.URL)
		}
		if g.Value < 0 || math.IsNaN(g.Value) || math.IsInf(g.Value, 0) {
			t.Fatalf("ParseGate(%q) value %v", expr, g.Value)
		}
		again, err := ParseGate(g.Expr)
		if err != nil || again != g {
			t.Fatalf("ParseGate(%q) = %+v, but its Expr parses to %+v, %v", expr, g, again, err)
		}
		bare := g
		bare.Expr = ""
		written := bare.Label()
		again, err = ParseGate(written)
		if again.Expr = ""; err != nil || again != bare {
			t.Fatalf("ParseGate(%q) = %+v, but its written form %q parses to %+v, %v", expr, g, written, again, err)
		}
	})
}
