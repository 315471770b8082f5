package judge

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// latencyGen draws one transaction's latency.
type latencyGen func(rng *rand.Rand) time.Duration

// lognormal is a server's usual latency shape: median m, a long right tail.
func lognormal(m time.Duration, sigma float64) latencyGen {
	return func(rng *rand.Rand) time.Duration {
		return time.Duration(float64(m) * math.Exp(sigma*rng.NormFloat64()))
	}
}

// scaled is g slowed down by the factor f.
func scaled(g latencyGen, f float64) latencyGen {
	return func(rng *rand.Rand) time.Duration { return time.Duration(float64(g(rng)) * f) }
}

// mix draws from fast with probability pFast, else from slow: a request mix.
func mix(pFast float64, fast, slow latencyGen) latencyGen {
	return func(rng *rand.Rand) time.Duration {
		if rng.Float64() < pFast {
			return fast(rng)
		}
		return slow(rng)
	}
}

// synthRun records n transactions drawn from g, one URL, as 20 users would make them: the
// elapsed time follows from the latencies, so rates move with them.
func synthRun(seed uint64, n int, g latencyGen) stats.Report {
	rec := stats.NewRecorder([]urls.Target{{Method: "GET", URL: "http://10.0.0.1/a"}}, stats.Options{})
	rng := rand.New(rand.NewPCG(seed, 7))
	batch := make([]loader.Result, 0, n)
	var sum time.Duration
	for range n {
		d := max(g(rng), time.Microsecond)
		sum += d
		batch = append(batch, loader.Result{Status: 200, BodyBytes: 1000, Latency: d})
	}
	rec.Record(batch)
	return rec.Report(loader.Outcome{Elapsed: sum / 20, Users: 20}, stats.RunInfo{}, "")
}

// synthSeries is a --repeat series of runs, run i slowed by the factor drift[i] on top of g
// (the run-to-run variation of a real site).
func synthSeries(t *testing.T, seed uint64, n int, g latencyGen, drift []float64) stats.Report {
	t.Helper()
	var runs []stats.Report
	for i, f := range drift {
		runs = append(runs, synthRun(seed+uint64(i)*1000, n, scaled(g, f)))
	}
	rep, err := stats.Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestVerdictsOnKnownTruth compares synthetic pairs whose truth is known, for single runs and
// 3-run series, and checks the verdict of each judged figure and of the limits
// rtime=10%,p95=10%.
func TestVerdictsOnKnownTruth(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	base := lognormal(50*ms, 0.5)
	fast, slow := lognormal(20*ms, 0.3), lognormal(500*ms, 0.1)
	steady := []float64{1, 1, 1}
	type want struct{ rtime, p50, p95, p99, gate string }
	tests := []struct {
		name     string
		n        int
		old, new latencyGen
		series   bool
		oldDrift []float64
		newDrift []float64
		want     want
	}{
		{"no change", 2000, base, base, false, nil, nil, want{WithinNoise, WithinNoise, WithinNoise, WithinNoise, "ok"}},
		// A real +1 % change may or may not be seen; it must pass a 10 % limit.
		{"small noise +1%", 2000, base, scaled(base, 1.01), false, nil, nil, want{"", "", "", "", "ok"}},
		{"+10%", 5000, base, scaled(base, 1.10), false, nil, nil, want{Significant, Significant, Significant, "", ""}},
		{"2x", 2000, base, scaled(base, 2), false, nil, nil, want{Significant, Significant, Significant, Significant, "FAILED"}},
		{"39x", 2000, base, scaled(base, 39), false, nil, nil, want{Significant, Significant, Significant, Significant, "FAILED"}},
		{"39x, 50 requests", 50, base, scaled(base, 39), false, nil, nil, want{Significant, Significant, Significant, Significant, "FAILED"}},
		{"mix shift 80/20 to 20/80", 200, mix(0.8, fast, slow), mix(0.2, fast, slow), false, nil, nil, want{Significant, Significant, "", "", "FAILED"}},
		// Most requests a little faster, one in 20 stuck for 40 s: a rank test sees no shift,
		// the mean is 37 times as high.
		{"mix shift: 5% of requests take 40 s", 400, base, mix(0.95, scaled(base, 0.96), lognormal(40*time.Second, 0.05)), false, nil, nil,
			want{Significant, "", "", Significant, "FAILED"}},
		{"series: no change", 1000, base, base, true, steady, steady, want{WithinNoise, WithinNoise, WithinNoise, WithinNoise, "ok"}},
		{"series: small noise +1%", 1000, base, scaled(base, 1.01), true, steady, steady, want{"", "", "", "", "ok"}},
		{"series: 2x", 1000, base, scaled(base, 2), true, []float64{0.95, 1, 1.05}, []float64{0.95, 1, 1.05}, want{Significant, Significant, Significant, Significant, "FAILED"}},
		{"series: 39x", 1000, base, scaled(base, 39), true, []float64{0.95, 1, 1.05}, []float64{0.95, 1, 1.05}, want{Significant, Significant, Significant, Significant, "FAILED"}},
		// All three runs slower, by +52 % on average, but the runs vary so much that three of
		// each cannot show it: the gate must not pass it.
		{"series: +52%, runs all slower, spread wide", 1000, base, scaled(base, 1.52), true,
			[]float64{0.7, 1, 1.3}, []float64{0.7, 1, 1.3}, want{Inconclusive, Inconclusive, Inconclusive, Inconclusive, "INCONCLUSIVE"}},
	}
	limits := []Limit{{Key: "rtime", Max: 0.10}, {Key: "p95", Max: 0.10}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Seeds follow from the case's name, so adding a case changes no other's draws.
			h := fnv.New64a()
			h.Write([]byte(tc.name))
			seed := h.Sum64() % (1 << 40)
			var a, b stats.Report
			if tc.series {
				a, b = synthSeries(t, seed, tc.n, tc.old, tc.oldDrift), synthSeries(t, seed+50000, tc.n, tc.new, tc.newDrift)
			} else {
				a, b = synthRun(seed, tc.n, tc.old), synthRun(seed+50000, tc.n, tc.new)
			}
			c, err := Compare([]stats.Report{a, b}, false)
			if err != nil {
				t.Fatal(err)
			}
			for key, w := range map[string]string{"rtime": tc.want.rtime, "p50": tc.want.p50, "p95": tc.want.p95, "p99": tc.want.p99} {
				cell := c.Rows[1].Cells[columnIndex(key)]
				if w != "" && cell.Verdict != w {
					t.Errorf("%s: %s (change %+.1f%%, p %v, test %q), want %s", key, cell.Verdict, *cell.Change*100, deref(cell.P), cell.Test, w)
				}
			}
			got := "ok"
			// The truth of +10 % is right at the limit: either verdict is right.
			for _, v := range c.CheckLimits(limits) {
				switch {
				case v.Inconclusive && got == "ok":
					got = "INCONCLUSIVE"
				case !v.Passed && !v.Inconclusive:
					got = "FAILED"
				}
				t.Log(v.Text)
			}
			if tc.want.gate != "" && got != tc.want.gate {
				t.Errorf("gate rtime=10%%,p95=10%%: %s, want %s", got, tc.want.gate)
			}
		})
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// synthHists draws runs of n latencies from g into histograms, and pools them.
func synthHists(rng *rand.Rand, runs, n int, g latencyGen) (each []*hdr.Histogram, pooled *hdr.Histogram) {
	pooled = hdrcodec.NewHistogram()
	for range runs {
		h := hdrcodec.NewHistogram()
		for range n {
			v, _ := hdrcodec.ToUnits(max(g(rng), time.Microsecond))
			_ = h.RecordValue(v)
		}
		pooled.Merge(h)
		each = append(each, h)
	}
	return each, pooled
}

// judgeHists judges figure key between two sides of runs as Compare does, from the histograms
// alone: the figure of each run (for series) and of the pooled runs.
func judgeHists(key string, a, b []*hdr.Histogram, pa, pb *hdr.Histogram) string {
	f, _ := stats.LookupFigure(key)
	value := func(h *hdr.Histogram) float64 {
		if q := f.Compare.Quantile; q > 0 {
			return float64(h.ValueAtPercentile(q))
		}
		return h.Mean()
	}
	var va, vb []float64
	if len(a) > 1 {
		for i := range a {
			va, vb = append(va, value(a[i])), append(vb, value(b[i]))
		}
	}
	cell := CompareCell{Measured: true, Value: value(pb)}
	judge(&cell, CompareCell{Measured: true, Value: value(pa)}, f, va, vb, pa, pb)
	return cell.Verdict
}

// TestVerdictErrorRates measures, on seeded pairs with no change, how often a change is called
// significant (at most 5 % plus a margin for the pairs drawn), and how often a real +10 % change
// of every request is found: single runs of 1000 requests, and 3-run series of 1000 each.
func TestVerdictErrorRates(t *testing.T) {
	testtier.Maths(t)
	testtier.Slow(t)
	t.Parallel()
	base := lognormal(50*time.Millisecond, 0.5)
	keys := []string{"rtime", "p50", "p95"}
	rate := func(seed uint64, pairs, runs int, g latencyGen) map[string]float64 {
		rng := rand.New(rand.NewPCG(seed, 11))
		hits := map[string]float64{}
		for range pairs {
			a, pa := synthHists(rng, runs, 1000, base)
			b, pb := synthHists(rng, runs, 1000, g)
			for _, key := range keys {
				if judgeHists(key, a, b, pa, pb) == Significant {
					hits[key] += 1.0 / float64(pairs)
				}
			}
		}
		return hits
	}
	tests := []struct {
		name          string
		pairs, runs   int
		maxFalseAlarm float64
		minPower      map[string]float64
	}{
		// By the normal approximation, a +10 % change of lognormal(sigma 0.5) latencies over
		// 1000 requests a side is 4.2 standard errors for the mean (power 98 %), 3.4 for the
		// median (92 %) and about 1.9 for p95 (45 %).
		{"single runs", 200, 1, 0.085, map[string]float64{"rtime": 0.9, "p50": 0.8, "p95": 0.3}},
		{"3-run series", 100, 3, 0.09, map[string]float64{"rtime": 0.9, "p50": 0.8, "p95": 0.3}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			falseAlarms := rate(uint64(i+1), tc.pairs, tc.runs, base)
			power := rate(uint64(i+100), tc.pairs, tc.runs, scaled(base, 1.10))
			t.Logf("%d pairs: significant on no change %v; on +10%% %v", tc.pairs, falseAlarms, power)
			for _, key := range keys {
				if falseAlarms[key] > tc.maxFalseAlarm {
					t.Errorf("%s: %.1f %% of unchanged pairs called significant, want at most %.1f %%", key, falseAlarms[key]*100, tc.maxFalseAlarm*100)
				}
				if power[key] < tc.minPower[key] {
					t.Errorf("%s: +10 %% found in %.1f %% of pairs, want at least %.0f %%", key, power[key]*100, tc.minPower[key]*100)
				}
			}
		})
	}
}
