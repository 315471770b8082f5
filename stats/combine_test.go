package stats

import (
	"math"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Combining runs must give the same figures as recording all their results in one run.
func TestCombineEqualsOneRecording(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}, {Method: "GET", URL: "http://127.0.0.1/b"}}
	batch := func(seed int) []loader.Result {
		var out []loader.Result
		for i := range 200 {
			r := loader.Result{Target: int32(i % 2), User: int32(i % 4), Status: 200,
				Latency: time.Duration(1000+(i*seed*7919)%50000) * time.Microsecond, BodyBytes: int64(100 + i)}
			if i%37 == 0 {
				r.Status = 500
			}
			out = append(out, r)
		}
		return out
	}
	var runs []Report
	all := NewRecorder(targets, Options{})
	for seed := 1; seed <= 3; seed++ {
		rec := NewRecorder(targets, Options{})
		rec.Record(batch(seed))
		all.Record(batch(seed))
		runs = append(runs, rec.Report(loader.Outcome{Elapsed: 2 * time.Second, Users: 4}, RunInfo{}, "x"))
	}
	got, err := Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	want := all.Report(loader.Outcome{Elapsed: 6 * time.Second, Users: 4}, RunInfo{}, "x")
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	checks := []struct {
		name      string
		got, want float64
	}{
		{"transactions", float64(got.Transactions), float64(want.Transactions)},
		{"failed", float64(got.FailedTransactions), float64(want.FailedTransactions)},
		{"elapsed", got.ElapsedTime, want.ElapsedTime},
		{"response time", got.ResponseTime, want.ResponseTime},
		{"rate", got.TransactionRate, want.TransactionRate},
		{"concurrency", got.Concurrency, want.Concurrency},
		{"data", got.DataTransferred, want.DataTransferred},
		{"p50", got.Percentiles.P50, want.Percentiles.P50},
		{"p99", got.Percentiles.P99, want.Percentiles.P99},
		{"max", got.Percentiles.Max, want.Percentiles.Max},
		{"shortest", got.ShortestTransaction, want.ShortestTransaction},
		{"url b p95", got.URLs[1].P95, want.URLs[1].P95},
		{"url b mean", got.URLs[1].Mean, want.URLs[1].Mean},
		{"url a hits", float64(got.URLs[0].Hits), float64(want.URLs[0].Hits)},
		{"status 500", float64(got.StatusCodes["500"]), float64(want.StatusCodes["500"])},
	}
	for _, c := range checks {
		if !near(c.got, c.want) {
			t.Errorf("%s: combined %v, one recording %v", c.name, c.got, c.want)
		}
	}
	a, _ := hdr.Decode([]byte(got.Histogram))
	b, _ := hdr.Decode([]byte(want.Histogram))
	if !a.Equals(b) {
		t.Error("combined histogram differs from the one recording")
	}
	if len(got.Repeats) != 3 || len(got.Timeline) != len(runs[0].Timeline)*3 {
		t.Errorf("repeats %d, timeline %d points", len(got.Repeats), len(got.Timeline))
	}
}

func TestCombineRefusesMismatchedRuns(t *testing.T) {
	t.Parallel()
	if _, err := Combine(nil); err == nil {
		t.Error("combined nothing")
	}
	a := Report{URLs: make([]URLStats, 2)}
	b := Report{URLs: make([]URLStats, 3)}
	if _, err := Combine([]Report{a, b}); err == nil {
		t.Error("combined runs of different URL lists")
	}
	if _, err := Combine([]Report{{Histogram: "not base64!"}}); err == nil {
		t.Error("accepted a broken histogram")
	}
}

// Page figures combine exactly too: overall and per URL, failed and cut pages left out of the
// times.
// Means agree to the nanosecond to which each run's report rounds them.
func TestCombinePagesEqualsOneRecording(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}, {Method: "GET", URL: "http://127.0.0.1/b"}}
	batch := func(seed int) []loader.Result {
		var out []loader.Result
		for i := range 120 {
			r := loader.Result{Target: int32(i % 2), Status: 200, Kind: loader.KindPage,
				Latency: time.Duration(2000+(i*seed*7919)%90000) * time.Microsecond}
			if i%11 == 0 {
				r.Status = 503
			}
			r.AfterStop = i%13 == 0 // the end of the run cut the visit among its resources
			out = append(out, r, loader.Result{Target: int32(i % 2), Status: 200, Kind: loader.KindResource, Latency: time.Millisecond})
		}
		return out
	}
	all := NewRecorder(targets, Options{})
	var runs []Report
	for seed := 1; seed <= 3; seed++ {
		rec := NewRecorder(targets, Options{})
		rec.Record(batch(seed))
		all.Record(batch(seed))
		runs = append(runs, rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, RunInfo{}, "x"))
	}
	got, err := Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	want := all.Report(loader.Outcome{Elapsed: 3 * time.Second, Users: 1}, RunInfo{}, "x")
	g, w := *got.Pages, *want.Pages
	if g.Cut == 0 {
		t.Error("no cut pages recorded")
	}
	if g.Pages != w.Pages || g.Failed != w.Failed || g.Cut != w.Cut || g.Resources != w.Resources || g.Percentiles != w.Percentiles ||
		math.Abs(g.Mean-w.Mean) > 1e-9 {
		t.Errorf("combined pages %+v, one recording %+v", g, w)
	}
	for i := range targets {
		gu, wu := *got.URLs[i].Pages, *want.URLs[i].Pages
		if gu.Pages != wu.Pages || gu.Cut != wu.Cut || gu.P95 != wu.P95 || gu.Max != wu.Max || math.Abs(gu.Mean-wu.Mean) > 1e-9 {
			t.Errorf("URL %d: combined %+v, one recording %+v", i, gu, wu)
		}
	}
}
