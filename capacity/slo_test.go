package capacity

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/webload/webload/stats"
)

func TestCheckGate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		expr string
		ok   bool
	}{
		{"p95<500ms", true},
		{"p99<=2s", true},
		{"rtime<300ms", true},
		{"max<10s", true},
		{"error_rate<1", true},
		{"error_rate<=0", true},
		{"failed<1", true},
		{"availability>99", true},
		{"availability>=99.9", true},
		{"url:/checkout p95<1s", true},
		{"concurrency<50", true},
		// A heavier load only makes these easier to keep.
		{"p95>500ms", false},
		{"rtime>=100ms", false},
		{"error_rate>1", false},
		{"availability<99", false},
		// What a heavier load makes more of.
		{"trate>=0", false},
		{"trate>100", false},
		{"transactions>100", false},
		{"successful>=10", false},
		{"requests<1000", false},
		{"throughput>1", false},
		{"capacity>10", false},
		// Set by the search, compared exactly, always or never kept.
		{"elapsed<20s", false},
		{"failed==0", false},
		{"p95!=1s", false},
		{"error_rate<=100", false},
		{"error_rate<101", false},
		{"availability>=0", false},
		{"availability>100", false},
		{"p95<0s", false},
		{"failed<0", false},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			err := CheckGate(mustGates(t, tc.expr)[0])
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrBadSLO)) {
				t.Fatalf("CheckGate(%q) = %v, want ok %v", tc.expr, err, tc.ok)
			}
		})
	}
}

// An SLO that bounds no failures gets the error ceiling; one that does keeps its own gate.
func TestSLOAddsTheErrorCeiling(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		slo  []string
		want []string
	}{
		{"latency alone", []string{"p95<500ms"}, []string{"p95<500ms", ErrorCeiling}},
		{"a url's errors bound only that url", []string{"p95<500ms", "url:/a error_rate<5"}, []string{"p95<500ms", "url:/a error_rate<5", ErrorCeiling}},
		{"error_rate", []string{"p95<500ms", "error_rate<5"}, []string{"p95<500ms", "error_rate<5"}},
		{"availability", []string{"availability>=90"}, []string{"availability>=90"}},
		{"failed", []string{"p99<1s", "failures<10"}, []string{"p99<1s", "failures<10"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := SLO(mustGates(t, tc.slo...))
			if err != nil {
				t.Fatal(err)
			}
			var exprs []string
			for _, g := range got {
				exprs = append(exprs, g.Expr)
			}
			if !slices.Equal(exprs, tc.want) {
				t.Fatalf("SLO(%q) = %q, want %q", tc.slo, exprs, tc.want)
			}
		})
	}
	if _, err := SLO(mustGates(t, "p95<1s", "trate>10")); !errors.Is(err, ErrBadSLO) {
		t.Fatalf("an SLO with a gate on the rate: %v", err)
	}
	if _, err := SLO(nil); !errors.Is(err, ErrNoSLO) {
		t.Fatalf("no SLO: %v", err)
	}
}

// A server that answers 503 to 97 % of requests, at once, keeps p95<500ms on the few it serves:
// the error ceiling fails its steps, and the search holds them to it with p95 alone given.
func TestSearchHoldsStepsToTheErrorCeiling(t *testing.T) {
	t.Parallel()
	measure := func(_ context.Context, rate float64) (Measured, error) {
		rep := stats.Report{Transactions: 1000, Percentiles: stats.Percentiles{P95: 0.01}}
		if rate > 100 {
			rep.Transactions, rep.FailedTransactions = 30, 970
		}
		return Measured{Report: rep}, nil
	}
	res, err := Search(context.Background(), mustGates(t, "p95<500ms"), Options{From: 25}, measure)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rate != 100 || len(res.SLO) != 2 || res.SLO[1].Expr != ErrorCeiling {
		t.Fatalf("capacity %v judged by %+v; want 100 and the error ceiling", res.Rate, res.SLO)
	}
	failed := res.Steps[res.NextFailed]
	if failed.Passed || failed.Rate <= 100 || failed.Summary().Broke != "error_rate 97.000 %" {
		t.Fatalf("the next step: %+v", failed.Summary())
	}
	if c := res.Summary(); !slices.Contains(c.SLO, ErrorCeiling) {
		t.Fatalf("the saved SLO %q lacks the ceiling", c.SLO)
	}
}
