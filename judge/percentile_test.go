package judge

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/gatetest"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// steppedRun is a run whose latencies are known one by one: /a answers in 1, 2, ... 1000 ms and
// /b in 2, 4, ... 2000 ms, one request each. It returns the report and every latency in
// seconds, sorted, of the run and of each URL.
func steppedRun() (rep stats.Report, all, a, b []float64) {
	targets := []urls.Target{{Method: "GET", URL: "http://10.0.0.1/a"}, {Method: "GET", URL: "http://10.0.0.1/b"}}
	rec := stats.NewRecorder(targets, stats.Options{})
	var batch []loader.Result
	for i := 1; i <= 1000; i++ {
		da, db := time.Duration(i)*time.Millisecond, time.Duration(2*i)*time.Millisecond
		batch = append(batch, loader.Result{Target: 0, Status: 200, Latency: da}, loader.Result{Target: 1, Status: 200, Latency: db})
		a, b = append(a, da.Seconds()), append(b, db.Seconds())
	}
	rec.Record(batch)
	all = slices.Sorted(slices.Values(append(slices.Clone(a), b...)))
	return rec.Report(loader.Outcome{Elapsed: 10 * time.Second, Users: 2}, stats.RunInfo{}, "stepped"), all, a, b
}

// exactPercentile is the q-th percentile of sorted values as HdrHistogram counts it: the value
// at or below which q % of them lie.
func exactPercentile(sorted []float64, q float64) float64 {
	return sorted[int(math.Ceil(q/100*float64(len(sorted))))-1]
}

// nearHistogram tells whether a percentile read from a histogram is the exact one to the
// histogram's 3 significant digits.
func nearHistogram(got, want float64) bool {
	return math.Abs(got-want) <= want*1e-3+1e-6
}

// Any percentile of the run or of a URL is read from its histogram, within the histogram's
// precision of the exact one, and the fixed percentiles read there equal the fields that keep
// them: p(N) computes a percentile as the recorder does.
func TestPercentileFromTheHistogram(t *testing.T) {
	t.Parallel()
	rep, all, a, b := steppedRun()
	for _, q := range []float64{0.1, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99} {
		v, ok := stats.PercentileOf(rep.Histogram, rep.Transactions, rep.Percentiles.Max, q)
		if !ok || !nearHistogram(v, exactPercentile(all, q)) {
			t.Errorf("run p(%g) = %v, %v; want %v", q, v, ok, exactPercentile(all, q))
		}
		for i, vals := range [][]float64{a, b} {
			u := &rep.URLs[i]
			v, ok := stats.PercentileOf(u.Histogram, u.Hits, u.Max, q)
			if !ok || !nearHistogram(v, exactPercentile(vals, q)) {
				t.Errorf("%s p(%g) = %v, %v; want %v", u.URL, q, v, ok, exactPercentile(vals, q))
			}
		}
	}
	rep.Percentiles.Quantiles(func(q float64, field *float64) {
		if v, _ := stats.PercentileOf(rep.Histogram, rep.Transactions, rep.Percentiles.Max, q); v != *field {
			t.Errorf("run p%g: %v from the histogram, %v in the field", q, v, *field)
		}
	})
	for i := range rep.URLs {
		u := &rep.URLs[i]
		u.EachPercentile(func(q, field float64) {
			if v, _ := stats.PercentileOf(u.Histogram, u.Hits, u.Max, q); v != field {
				t.Errorf("%s p%g: %v from the histogram, %v in the field", u.URL, q, v, field)
			}
		})
	}
	if v, ok := stats.PercentileOf(rep.Histogram, rep.Transactions, rep.Percentiles.Max, 100); !ok || v != rep.Percentiles.Max {
		t.Errorf("p(100) = %v, %v; want the longest, %v", v, ok, rep.Percentiles.Max)
	}
}

// --assert takes p(N) on the run and on a URL; p(95) is p95 itself, and a result saved without
// histograms fails a p(N) gate for want of it rather than pass it.
func TestPercentileGates(t *testing.T) {
	t.Parallel()
	rep, all, a, b := steppedRun()
	cases := []struct {
		expr     string
		passed   bool
		measured float64
		text     string
	}{
		{"p(75)<2s", true, exactPercentile(all, 75), "p(75) = "},
		{"p(75)<1s", false, exactPercentile(all, 75), "p(75) = "},
		{"p(99.5)>=1s", true, exactPercentile(all, 99.5), "p(99.5) = "},
		{"p(95)<10s", true, rep.Percentiles.P95, "p95 = "},
		{"p(100)<10s", true, rep.Percentiles.Max, "max = "},
		{"url:/a p(99.5)<1s", true, exactPercentile(a, 99.5), "p(99.5) of GET http://10.0.0.1/a = "},
		{"url:/b p(99.5)<1s", false, exactPercentile(b, 99.5), "p(99.5) of GET http://10.0.0.1/b = "},
		{"url:/a p90<1s", true, exactPercentile(a, 90), "p90 of GET http://10.0.0.1/a = "},
		{"url:/b p(0.1)>1ms", true, exactPercentile(b, 0.1), "p(0.1) of GET http://10.0.0.1/b = "},
	}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			t.Parallel()
			g, err := gate.ParseGate(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			v := gate.CheckGates(&rep, []gate.Gate{g})[0]
			if v.Passed != c.passed || !nearHistogram(v.Measured, c.measured) || !strings.HasPrefix(v.Text, c.text) {
				t.Errorf("%s: passed %v, measured %v, %q; want %v, %v, %q...", c.expr, v.Passed, v.Measured, v.Text, c.passed, c.measured, c.text)
			}
		})
	}
	p95, _ := gate.ParseGate("p95<1s")
	written, _ := gate.ParseGate("p(95)<1s")
	if x, y := gate.CheckGates(&rep, []gate.Gate{p95})[0], gate.CheckGates(&rep, []gate.Gate{written})[0]; x.Measured != y.Measured || x.Figure != y.Figure {
		t.Errorf("p95 %v (%s) and p(95) %v (%s); want the same figure", x.Measured, x.Figure, y.Measured, y.Figure)
	}
	// gateReport is a result worked out by hand, without histograms.
	for expr, want := range map[string]string{
		"p(75)<1s":               "p(75)<1s: p(75) was not measured in this run: FAILED",
		"url:/checkout p(75)<1s": "url:/checkout p(75)<1s: p(75) was not measured for /checkout in this run: FAILED",
		"url:/checkout p90<1s":   "url:/checkout p90<1s: p90 was not measured for /checkout in this run: FAILED",
	} {
		g, err := gate.ParseGate(expr)
		if err != nil {
			t.Fatal(err)
		}
		if v := gate.CheckGates(gatetest.Report(), []gate.Gate{g})[0]; v.Passed || v.Text != want {
			t.Errorf("%s without histograms: %q, want %q", expr, v.Text, want)
		}
	}
}

// compare --max-regression takes p(N), judged as the p95 column is: by the quantile test on the
// two latency distributions, significant when they differ at that percentile.
func TestLimitOnAnyPercentile(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	base := fakeRun("base", 1, 4000, 100*ms, 100*ms, 10*time.Second)
	same := fakeRun("same", 2, 4000, 100*ms, 100*ms, 10*time.Second)
	slow := fakeRun("slow", 3, 4000, 100*ms, 200*ms, 10*time.Second) // p75: 175 ms becomes 250 ms
	cmp, err := Compare([]stats.Report{base, same, slow}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limits, figure string
		passed         []bool // same, slow
		slow           string // the start of slow's verdict
	}{
		{"p(75)=10%", "p(75)", []bool{true, false}, "slow p(75) 24"},
		{"p(75)=60%", "p(75)", []bool{true, true}, "slow p(75) 24"},
		{"P(99.5)=10%", "p(99.5)", []bool{true, false}, "slow p(99.5) 29"},
	} {
		limits, err := ParseLimits(c.limits)
		if err != nil {
			t.Fatal(err)
		}
		got := cmp.CheckLimits(limits)
		if len(got) != 2 || got[0].Passed != c.passed[0] || got[1].Passed != c.passed[1] || got[1].Inconclusive {
			t.Fatalf("%s: %+v; want passed %v", c.limits, got, c.passed)
		}
		if !strings.HasPrefix(got[1].Text, c.slow) || got[1].Figure != c.figure {
			t.Errorf("%s: %q (figure %q); want it to start %q", c.limits, got[1].Text, got[1].Figure, c.slow)
		}
		if !c.passed[1] && !strings.Contains(got[1].Text, "FAILED (significant, p = ") {
			t.Errorf("%s: %q; want a significant change", c.limits, got[1].Text)
		}
	}
	f, _ := stats.LookupFigure("p(75)")
	if cell := cmp.cell(2, f); cell.Verdict != Significant || !strings.HasPrefix(cell.Test, "p75: quantile test") {
		t.Errorf("slow p(75): %s by %q; want significant by the quantile test", cell.Verdict, cell.Test)
	}
	if cell := cmp.cell(1, f); cell.Verdict == Significant {
		t.Errorf("same p(75): %s (p = %v); want no change", cell.Verdict, *cell.P)
	}
}

// A trend follows p(N) as it follows the table's percentiles.
func TestTrendLimitOnAnyPercentile(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	var runs []stats.Report
	for i := range 4 {
		runs = append(runs, fakeRun("night", uint64(i+1), 2000, 100*ms, 100*ms, 10*time.Second))
	}
	runs = append(runs, fakeRun("night", 9, 2000, 100*ms, 200*ms, 10*time.Second))
	tr, err := NewTrend(runs, 2)
	if err != nil {
		t.Fatal(err)
	}
	v := tr.CheckLimits([]Limit{{Key: "p(75)", Max: 0.1}})[0]
	if v.Passed || v.Figure != "p(75)" || !strings.HasPrefix(v.Text, "newest p(75) 25") {
		t.Errorf("p(75) 43 %% slower: %+v", v)
	}
}

// Every figure of a run is measured by some run: by every run, or by a run with what it needs
// (Figure.needs), never by none, so that a limit or gate on it cannot go unjudged for want of
// anything the user could add.
func TestEveryRunFigureIsMeasured(t *testing.T) {
	t.Parallel()
	plain := fakeRun("plain", 1, 100, time.Millisecond, time.Millisecond, time.Second)
	full := worseReport() // gateReport with the server's load
	full.Capacity = &stats.Capacity{Rate: 400}
	full.SetDatabases([]dbload.Summary{mysqlSummary(1000)})
	full.Extractions = &stats.ExtractStats{Taken: 100, Missing: 1}
	full.Logins = &stats.LoginStats{Logins: 20, Made: i64p(19), FailedLogins: 1, Requests: 40, Failed: 1}
	for _, f := range stats.Figures {
		if !stats.PerRun(f) {
			continue
		}
		_, inPlain := f.Run(&plain)
		_, inFull := f.Run(full)
		switch {
		case f.Needs == "" && !inPlain:
			t.Errorf("%s: not measured in a plain run, yet it names nothing a run needs for it", f.Name)
		case f.Needs != "" && inPlain:
			t.Errorf("%s: measured in a plain run, yet it needs %s", f.Name, f.Needs)
		case f.Needs != "" && !inFull:
			t.Errorf("%s: not measured even with %s", f.Name, f.Needs)
		}
	}
}

// --max-regression takes p(N) as --assert does, and refuses what --assert refuses.
func TestParseLimitsPercentiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, key, err string
	}{
		{in: "p(99.5)=10%", key: "p(99.5)"},
		{in: "P(75)=5", key: "p(75)"},
		{in: "p(95)=10%", key: "p(95)"},
		{in: "p(99.99)=1%", key: "p(99.99)"},
		{in: "p(0)=10%", err: `bad limit "p(0)=10%": p(0): a percentile is above 0 and at most 100`},
		{in: "p(101)=10%", err: `bad limit "p(101)=10%": p(101): a percentile is above 0 and at most 100`},
		{in: "p(abc)=10%", err: `bad limit "p(abc)=10%": p(abc): want a percentile such as p(99.5)`},
		{in: "p(99.5=10%", err: `bad limit "p(99.5=10%": p(99.5: expected ) after the percentile`},
		{in: "p75=10%", err: `bad limit "p75=10%": unknown figure "p75": write p(75) for that percentile`},
		{in: "p999=10%", err: `bad limit "p999=10%": unknown figure "p999" (known: availability, `},
	}
	for _, c := range cases {
		limits, err := ParseLimits(c.in)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("ParseLimits(%q) = %v, %v; want the error %q", c.in, limits, err, c.err)
			}
			continue
		}
		if err != nil || len(limits) != 1 || limits[0].Key != c.key {
			t.Errorf("ParseLimits(%q) = %v, %v; want the key %q", c.in, limits, err, c.key)
		}
	}
	if _, err := ParseLimits("speed=10%"); err == nil || !strings.HasSuffix(err.Error(), "users_never_logged_in or p(N))") {
		t.Errorf("unknown figure: %v; want the known names, p(N) last", err)
	}
}

// BenchmarkPercentileGate is what a gate on a percentile no field keeps costs: the run's
// histogram decoded and read once per check.
func BenchmarkPercentileGate(b *testing.B) {
	rep, _, _, _ := steppedRun()
	g, err := gate.ParseGate("p(99.5)<1s")
	if err != nil {
		b.Fatal(err)
	}
	gates := []gate.Gate{g}
	b.ReportAllocs()
	for b.Loop() {
		if v := gate.CheckGates(&rep, gates)[0]; math.IsNaN(v.Measured) {
			b.Fatal(v.Text)
		}
	}
}
