package judge

import (
	"math"
	"strings"
	"testing"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/gatetest"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
)

// TestEveryNameInBothGates holds --assert and --max-regression to one vocabulary: every name
// and alias people use today, and those the two lists did not share, means the same figure in
// both, and a figure kept only per URL is refused by the limits and the run gates alike.
func TestEveryNameInBothGates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		written string
		figure  string
		perURL  bool // also takes a url: selector
	}{
		{"p50", "p50", true}, {"p90", "p90", true}, {"p95", "p95", true}, {"p99", "p99", true},
		{"p99.9", "p99.9", true}, {"max", "max", true},
		{"p(50)", "p50", true}, {"p(90)", "p90", true}, {"p(95)", "p95", true}, {"P(99)", "p99", true},
		{"p(99.9)", "p99.9", true}, {"p(100)", "max", true}, {"p(095.0)", "p95", true},
		{"p(75)", "p(75)", true}, {"p(99.5)", "p(99.5)", true}, {"P(99.99)", "p(99.99)", true}, {"p(0.1)", "p(0.1)", true},
		{"rtime", "rtime", true}, {"mean", "rtime", true}, {"response_time", "rtime", true},
		{"availability", "availability", true}, {"error_rate", "error_rate", true},
		{"etime", "elapsed", false}, {"elapsed", "elapsed", false},
		{"trate", "trate", false}, {"transaction_rate", "trate", false},
		{"conc", "concurrency", false}, {"concurrency", "concurrency", false},
		{"ok", "successful", false}, {"successful", "successful", false},
		{"failed", "failed", true}, {"failures", "failed", true},
		{"transactions", "transactions", true}, {"trans", "transactions", true}, {"hits", "transactions", true},
		{"requests", "requests", false}, {"throughput", "throughput", false},
		{"longest", "longest", false}, {"shortest", "shortest", false},
		{"la", "la", false}, {"mem", "mem", false},
		{"P95", "p95", true}, {"ETime", "elapsed", false},
	}
	for _, c := range cases {
		t.Run(c.written, func(t *testing.T) {
			t.Parallel()
			f, ok := stats.LookupFigure(c.written)
			if !ok || f.Name != c.figure {
				t.Fatalf("LookupFigure(%q) = %q, %v; want %q", c.written, f.Name, ok, c.figure)
			}
			g, err := gate.ParseGate(c.written + ">=" + sampleLimit(f))
			if err != nil || g.Metric != c.figure {
				t.Errorf("gate on %s: %+v, %v; want metric %s", c.written, g, err, c.figure)
			}
			_, err = gate.ParseGate("url:/x " + c.written + ">=" + sampleLimit(f))
			if (err == nil) != c.perURL {
				t.Errorf("url gate on %s: error %v; want kept per URL %v", c.written, err, c.perURL)
			}
			limits, err := ParseLimits(c.written + "=10%")
			if err != nil || len(limits) != 1 || limits[0].Max != 0.1 {
				t.Fatalf("limit on %s: %v, %v", c.written, limits, err)
			}
			if lf, ok := stats.LookupFigure(limits[0].Key); !ok || lf.Name != c.figure {
				t.Errorf("limit key %q names %q; want %q", limits[0].Key, lf.Name, c.figure)
			}
		})
	}
	if _, err := ParseLimits("bytes=10%"); err == nil || !strings.Contains(err.Error(), "known: availability, error_rate,") {
		t.Errorf("a limit on a figure kept only per URL: %v", err)
	}
	if _, err := gate.ParseGate("bytes>0"); err == nil {
		t.Error("a run gate on a figure kept only per URL was accepted")
	}
}

// sampleLimit is a limit a gate on f accepts: times need a unit.
func sampleLimit(f stats.Figure) string {
	if f.Kind == stats.FigureTime {
		return "1s"
	}
	return "1"
}

// worseReport is gateReport with every figure of the run worse, the bad way: by half, and
// availability by 1.3 %.
func worseReport() *stats.Report {
	r := gatetest.Report()
	r.Transactions, r.SuccessfulTransactions, r.FailedTransactions, r.Requests = 660, 645, 15, 700
	r.Availability = 97.7
	r.ElapsedTime, r.ResponseTime, r.TransactionRate, r.Throughput = 45, 0.375, 66.664, 1
	r.Concurrency, r.LongestTransaction, r.ShortestTransaction = 12.375, 18.75, 0.003
	r.Percentiles = stats.Percentiles{P50: 0.3, P90: 0.9, P95: 1.2185175, P99: 2.25, P999: 15, Max: 18.75}
	r.Server = &sysload.Summary{Samples: 3, MaxLoad1: 3, PeakMemUsedMB: 1500}
	return r
}

// TestGateAndLimitAgree checks, for every figure of a run, that an --assert gate and a
// --max-regression limit read the same value in the same unit and agree on which way is worse:
// a gate at the baseline's value in the good direction fails on a run that the limit calls a
// regression.
func TestGateAndLimitAgree(t *testing.T) {
	t.Parallel()
	base, worse := gatetest.Report(), worseReport()
	base.Server = &sysload.Summary{Samples: 3, MaxLoad1: 2, PeakMemUsedMB: 1000}
	base.Label, worse.Label = "base", "worse"
	// The database did more per transaction, more slowly, and read less from memory.
	base.SetDatabases([]dbload.Summary{mysqlSummary(1000)})
	bad := mysqlSummary(3000)
	bad.SlowQueries, bad.BufferHitRatio, bad.Deadlocks = i64p(9), f64p(80), i64p(3)
	worse.SetDatabases([]dbload.Summary{bad})
	// More values went missing, more logins failed.
	base.Extractions, worse.Extractions = &stats.ExtractStats{Taken: 100, Missing: 1}, &stats.ExtractStats{Taken: 90, Missing: 4, Unsent: 3}
	base.Logins = &stats.LoginStats{Logins: 20, Made: i64p(19), FailedLogins: 1, Requests: 40, Failed: 1}
	worse.Logins = &stats.LoginStats{Logins: 20, Made: i64p(14), FailedLogins: 6, NeverLoggedIn: 2, Requests: 40, Failed: 6}
	// A lower capacity (a search's result).
	base.Capacity, worse.Capacity = &stats.Capacity{Rate: 400}, &stats.Capacity{Rate: 300}
	cmp, err := Compare([]stats.Report{*base, *worse}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range stats.Figures {
		if !stats.PerRun(f) {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			b, _ := f.Run(base)
			w, _ := f.Run(worse)
			if b == w || (w > b) == f.HigherIsBetter {
				t.Fatalf("worseReport is not worse in %s: %v against %v (higher is better %v)", f.Name, w, b, f.HigherIsBetter)
			}
			op := "<="
			if f.HigherIsBetter {
				op = ">="
			}
			g := gate.Gate{Metric: f.Name, Op: op, Value: b}
			if v := gate.CheckGates(base, []gate.Gate{g})[0]; !v.Passed {
				t.Errorf("gate %s on the baseline: %s", g.Label(), v.Text)
			}
			gv := gate.CheckGates(worse, []gate.Gate{g})[0]
			lv := cmp.CheckLimits([]Limit{{Key: f.Name, Max: 0.01}})[0]
			if gv.Passed || lv.Passed {
				t.Errorf("%s got worse: gate %v (%s), limit %v (%s); want both failed", f.Name, gv.Passed, gv.Text, lv.Passed, lv.Text)
			}
			if gv.Figure != f.Name || lv.Figure != f.Name {
				t.Errorf("verdicts name %q and %q; want %q", gv.Figure, lv.Figure, f.Name)
			}
			if math.Abs(gv.Measured-w) > 1e-9*math.Abs(w) || math.Abs(lv.Measured-w) > 1e-9*math.Abs(w) {
				t.Errorf("measured %v by the gate and %v by the limit; want %v in the base unit", gv.Measured, lv.Measured, w)
			}
		})
	}
}

// TestFiguresOutsideTheTable covers the limits the table's columns did not allow: they are
// judged as a column would be, and the table itself keeps its columns.
func TestFiguresOutsideTheTable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		limits string
		passed []bool
		text   string
	}{
		{"p90=10%", []bool{false}, "worse p90 900.0 ms vs 600.0 ms (+50.0%, allowed 10.0% worse): FAILED (1 run, no noise estimate"},
		{"p90=60%", []bool{true}, "worse p90 900.0 ms vs 600.0 ms (+50.0%, allowed 60.0% worse): ok"},
		{"availability=1%", []bool{false}, "worse Availability 97.700 % vs 99.000 % (-1.3%, allowed 1.0% worse): FAILED"},
		{"p99.9=10%,elapsed=60%", []bool{false, true}, "worse p99.9 15000.0 ms vs 10000.0 ms (+50.0%"},
	}
	base, worse := gatetest.Report(), worseReport()
	base.Label, worse.Label = "base", "worse"
	cmp, err := Compare([]stats.Report{*base, *worse}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Columns) != 11 || cmp.Columns[0].Key != "etime" || cmp.Columns[10].Key != "mem" {
		t.Errorf("table columns %+v", cmp.Columns)
	}
	for _, c := range cases {
		t.Run(c.limits, func(t *testing.T) {
			t.Parallel()
			limits, err := ParseLimits(c.limits)
			if err != nil {
				t.Fatal(err)
			}
			got := cmp.CheckLimits(limits)
			for i, v := range got {
				if v.Passed != c.passed[i] {
					t.Errorf("%s: passed %v; want %v", v.Check, v.Passed, c.passed[i])
				}
			}
			if !strings.HasPrefix(got[0].Text, c.text) {
				t.Errorf("text %q; want it to start %q", got[0].Text, c.text)
			}
		})
	}
}

func TestTrendLimitOutsideTheTable(t *testing.T) {
	t.Parallel()
	runs := []stats.Report{*gatetest.Report(), *gatetest.Report(), *gatetest.Report(), *worseReport()}
	tr, err := NewTrend(runs, 2)
	if err != nil {
		t.Fatal(err)
	}
	got := tr.CheckLimits([]Limit{{Key: "p90", Max: 0.1}, {Key: "availability", Max: 0.5}})
	if got[0].Passed || got[0].Check != "newest: p90" || !strings.HasPrefix(got[0].Text, "newest p90 900.0 ms vs median 600.0 ms (+50.0%") {
		t.Errorf("p90: %+v", got[0])
	}
	if !got[1].Passed {
		t.Errorf("availability: %+v", got[1])
	}
	if len(tr.Figures) != len(columns) {
		t.Errorf("%d trend lines; want the table's %d", len(tr.Figures), len(columns))
	}
}

// TestURLPercentile pins which percentiles are kept per URL: the url gates take exactly these.
func TestURLPercentile(t *testing.T) {
	t.Parallel()
	u := &stats.URLStats{P50: 0.1, P95: 0.2, P99: 0.3, Max: 0.4}
	cases := []struct {
		p    float64
		want float64
		ok   bool
	}{{50, 0.1, true}, {90, 0, false}, {95, 0.2, true}, {99, 0.3, true}, {99.9, 0, false}, {100, 0.4, true}}
	for _, c := range cases {
		v, ok := u.Percentile(c.p)
		if v != c.want || ok != c.ok {
			t.Errorf("Percentile(%v) = %v, %v; want %v, %v", c.p, v, ok, c.want, c.ok)
		}
	}
}

// TestLimitVerdictsAsJUnit writes a comparison's verdicts through the gates' JUnit writer: one
// case per run and limit, named by both.
func TestLimitVerdictsAsJUnit(t *testing.T) {
	t.Parallel()
	base, worse := gatetest.Report(), worseReport()
	base.Label, worse.Label = "base", "v2"
	cmp, err := Compare([]stats.Report{*base, *worse}, false)
	if err != nil {
		t.Fatal(err)
	}
	limits, err := ParseLimits("p95=10%,conc=90%,availability=1%")
	if err != nil {
		t.Fatal(err)
	}
	results := cmp.CheckLimits(limits)
	var b strings.Builder
	if err := WriteJUnit(&b, "webload compare", results); err != nil {
		t.Fatal(err)
	}
	checkJUnit(t, []byte(b.String()), "webload compare", []string{"v2: p95", "v2: conc", "v2: availability"}, results)
	if stats.Failed(results) != 2 {
		t.Errorf("%d failed; want 2 (p95 and availability)", stats.Failed(results))
	}
}
