package judge

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

// nightlyP95 is a history of p95 values in seconds: base plus Gaussian noise of sd, plus
// step from night stepAt on (no step when stepAt < 0), plus spike on the nights listed as noisy.
func nightlyP95(seed uint64, nights int, base, sd, step float64, stepAt int, noisy ...int) []float64 {
	rng := rand.New(rand.NewPCG(seed, 16))
	v := make([]float64, nights)
	for i := range v {
		v[i] = base + sd*rng.NormFloat64()
		if stepAt >= 0 && i >= stepAt {
			v[i] += step
		}
	}
	for _, i := range noisy {
		v[i] += 0.6 // a night when something else ran on the site: +600 ms
	}
	return v
}

// nightRuns are saved results whose only figure of note is the p95 given.
func nightRuns(p95 []float64) []stats.Report {
	runs := make([]stats.Report, len(p95))
	for i, v := range p95 {
		runs[i] = stats.Report{Label: "night", Transactions: 1000, SuccessfulTransactions: 1000, Requests: 1000,
			ElapsedTime: 10, ResponseTime: 0.25, TransactionRate: 100, Percentiles: stats.Percentiles{P50: 0.2, P95: v}}
		runs[i].Run.StartedAt = time.Date(2026, 11, 1+i, 2, 30, 0, 0, time.UTC)
	}
	return runs
}

// judgeNight is the verdict of a p95=10% limit on night i, the newest of the nights before it
// in a --last window of 30.
func judgeNight(t *testing.T, p95 []float64, i int) stats.Verdict {
	t.Helper()
	tr, err := NewTrend(nightRuns(p95[max(0, i-29):i+1]), DefaultMinHistory)
	if err != nil {
		t.Fatal(err)
	}
	return tr.CheckLimits([]Limit{{Key: "p95", Max: 0.10}})[0]
}

// A +200 ms step in a p95 of 500 ms ± 30 ms is caught the night it happens, although two
// earlier nights were +600 ms slow: those nights must not widen the noise so far that the step
// looks like noise.
func TestTrendCatchesStepAfterNoisyNights(t *testing.T) {
	t.Parallel()
	p95 := nightlyP95(1, 20, 0.5, 0.03, 0.2, 15, 1, 3)
	for i := DefaultMinHistory; i < 20; i++ {
		v := judgeNight(t, p95, i)
		if want := i < 15; v.Passed != want {
			t.Errorf("night %d (p95 %.0f ms): passed %v, want %v: %s", i, p95[i]*1000, v.Passed, want, v.Text)
		}
		if i == 15 && !strings.Contains(v.Text, "2 noisy earlier runs left out") {
			t.Errorf("night %d: the noisy nights are not named: %s", i, v.Text)
		}
		if i >= 16 {
			break // the nights after the step: judged against a history that holds it
		}
	}
}

// Over seeded histories the rule fails nights without a change rarely and catches the step
// nearly always; the rates are the ones the README states.
func TestTrendErrorRates(t *testing.T) {
	t.Parallel()
	const histories = 1000
	tests := []struct {
		name    string
		nights  int // the newest is the last, with a step when there is one
		step    float64
		noisy   []int
		minRate float64
		maxRate float64
	}{
		{"no change", 16, 0, nil, 0, 0.02},
		{"no change, two noisy nights", 16, 0, []int{4, 9}, 0, 0.02},
		{"no change, the shortest history judged", DefaultMinHistory + 1, 0, nil, 0, 0.04},
		{"+200 ms step", 16, 0.2, nil, 0.95, 1},
		{"+200 ms step, two noisy nights", 16, 0.2, []int{4, 9}, 0.95, 1},
		{"+200 ms step, the shortest history judged", DefaultMinHistory + 1, 0.2, nil, 0.5, 1},
		{"+100 ms step", 16, 0.1, nil, 0.4, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			failed := 0
			for seed := range uint64(histories) {
				p95 := nightlyP95(seed, tc.nights, 0.5, 0.03, tc.step, tc.nights-1, tc.noisy...)
				if !judgeNight(t, p95, tc.nights-1).Passed {
					failed++
				}
			}
			rate := float64(failed) / histories
			t.Logf("%s: the newest night failed in %d of %d histories (%.1f %%)", tc.name, failed, histories, 100*rate)
			if rate < tc.minRate || rate > tc.maxRate {
				t.Errorf("failure rate %.3f, want in [%v, %v]", rate, tc.minRate, tc.maxRate)
			}
		})
	}
}

// Below --min-history the newest is shown but not judged: a limit it breaks passes, and the
// trend says how much history there is.
func TestTrendNotEnoughHistory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		nights  int
		earlier string
	}{
		{"one result", 1, "0 of 5"},
		{"two results", 2, "1 of 5"},
		{"five results", 5, "4 of 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p95 := make([]float64, tc.nights)
			for i := range p95 {
				p95[i] = 0.5
			}
			p95[tc.nights-1] = 5 // ten times slower
			tr, err := NewTrend(nightRuns(p95), DefaultMinHistory)
			if err != nil {
				t.Fatal(err)
			}
			want := "not enough history: " + tc.earlier + " results"
			if !strings.Contains(tr.Note, want) {
				t.Errorf("note %q, want %q", tr.Note, want)
			}
			v := tr.CheckLimits([]Limit{{Key: "p95", Max: 0.1}})[0]
			if !v.Passed || !strings.Contains(v.Text, "not judged") {
				t.Errorf("limit: %+v", v)
			}
			var b strings.Builder
			if err := tr.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "p95 ms") {
				t.Errorf("text:\n%s", b.String())
			}
		})
	}
	if _, err := NewTrend(nil, DefaultMinHistory); err == nil {
		t.Error("a trend of no results")
	}
}

// The trend's JSON holds what JSON cannot: figures not measured (NaN) and changes from zero.
func TestTrendJSON(t *testing.T) {
	t.Parallel()
	runs := nightRuns([]float64{0.5, 0.5, 0.5})
	runs[2].FailedTransactions = 5 // from 0: a change of +Inf
	tr, err := NewTrend(runs, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := stats.WriteJSON(&b, tr); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Figures []struct {
			Key    string
			Values []*float64
			Newest *float64
			Change *float64
		}
	}
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
		t.Fatal(err)
	}
	for _, f := range back.Figures {
		switch f.Key {
		case "la":
			if f.Newest != nil || len(f.Values) != 3 || f.Values[0] != nil {
				t.Errorf("la not measured: %+v", f)
			}
		case "failed":
			if f.Change != nil || f.Newest == nil || *f.Newest != 5 {
				t.Errorf("failed from 0 to 5: %+v", f)
			}
		}
	}
}
