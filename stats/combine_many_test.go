package stats

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// manyURLRuns records runs over a long URL list the way "-r once" visits it: each run sees each
// URL at most once or twice, some URLs only as pages, some not at all. all records every run's
// results, for comparison.
func manyURLRuns(t testing.TB, n, runs int) ([]Report, *Recorder) {
	t.Helper()
	targets := make([]urls.Target, n)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1/p/%d", i)}
	}
	all := NewRecorder(targets, Options{})
	var out []Report
	for r := range runs {
		var batch []loader.Result
		for i := range n {
			if (i+r)%5 == 0 {
				continue // not visited in this run
			}
			res := loader.Result{Target: int32(i), User: int32(i % 10), Status: 200, BodyBytes: 2,
				Latency: time.Duration(50+(i*7919+r*104729)%400000) * time.Microsecond}
			if i%3 == 0 {
				res.Kind = loader.KindPage
				batch = append(batch, loader.Result{Target: res.Target, User: res.User, Status: 200, Latency: res.Latency})
			}
			if i%17 == 0 {
				res.Status = 503
			}
			batch = append(batch, res)
		}
		rec := NewRecorder(targets, Options{})
		rec.Record(batch)
		all.Record(batch)
		out = append(out, rec.Report(loader.Outcome{Elapsed: time.Second, Users: 10}, RunInfo{}, "x"))
	}
	return out, all
}

// Combining the runs of a long URL list costs memory in proportion to what they recorded, not a
// full histogram per URL: --repeat over 200 000 URLs once needed tens of gigabytes. The bound is
// generous (a few rows' worth per URL); the old code allocated over a megabyte per URL.
func TestCombineManyURLsAllocatesWhatWasRecorded(t *testing.T) {
	const n = 2000
	runs, _ := manyURLRuns(t, n, 2)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := Combine(runs); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	const perURL = 16 << 10
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("combining 2 runs of %d URLs allocated %d bytes per URL", n, got/n)
	if got > n*perURL {
		t.Errorf("combining 2 runs of %d URLs allocated %d bytes, %d per URL; want at most %d per URL", n, got, got/n, perURL)
	}
}

// Per-URL histograms, status codes and page figures of combined runs are those of one recording
// of every run's results.
func TestCombineManyURLsEqualsOneRecording(t *testing.T) {
	t.Parallel()
	runs, all := manyURLRuns(t, 500, 3)
	got, err := Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	want := all.Report(loader.Outcome{Elapsed: 3 * time.Second, Users: 10}, RunInfo{}, "x")
	for i := range want.URLs {
		g, w := &got.URLs[i], &want.URLs[i]
		if g.Hits != w.Hits || g.Failures != w.Failures || g.Bytes != w.Bytes || g.P50 != w.P50 || g.P95 != w.P95 ||
			g.P99 != w.P99 || g.Max != w.Max || fmt.Sprint(g.StatusCodes) != fmt.Sprint(w.StatusCodes) {
			t.Fatalf("URL %d: combined %+v, one recording %+v", i, *g, *w)
		}
		if !sameBuckets(t, g.Histogram, w.Histogram) {
			t.Fatalf("URL %d: combined histogram differs from the one recording", i)
		}
		if (g.Pages == nil) != (w.Pages == nil) {
			t.Fatalf("URL %d: combined pages %v, one recording %v", i, g.Pages, w.Pages)
		}
		if g.Pages == nil {
			continue
		}
		gp, wp := *g.Pages, *w.Pages
		if !sameBuckets(t, gp.Histogram, wp.Histogram) {
			t.Fatalf("URL %d: combined page histogram differs from the one recording", i)
		}
		gp.Histogram, wp.Histogram, gp.Mean, wp.Mean = "", "", 0, 0
		if gp != wp {
			t.Fatalf("URL %d: combined pages %+v, one recording %+v", i, gp, wp)
		}
	}
}

// sameBuckets says whether two encoded histograms hold the same counts.
func sameBuckets(t *testing.T, a, b string) bool {
	t.Helper()
	return slices.Equal(buckets(t, a), buckets(t, b))
}

func buckets(t *testing.T, encoded string) [][2]int64 {
	t.Helper()
	if encoded == "" {
		return nil
	}
	h, err := hdr.DecodePacked([]byte(encoded))
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]int64
	for v, c := range h.ForEachBucket {
		out = append(out, [2]int64{v, c})
	}
	return out
}
