package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/content"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

func manyTargets(n int) []urls.Target {
	targets := make([]urls.Target, n)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1/p/%d", i)}
	}
	return targets
}

// A URL of a long list that no request reached costs the recorder a pointer, not a record: a
// 1 000 000-line list used to take 64 MB before the first request.
func TestRecorderOfManyURLsCostsAPointerPerURL(t *testing.T) {
	const n = 100_000
	targets := manyTargets(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec := NewRecorder(targets, Options{})
	runtime.ReadMemStats(&after)
	const perURL = 16
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("a recorder of %d URLs allocated %d bytes", n, got)
	if got > n*perURL {
		t.Errorf("a recorder of %d URLs allocated %d bytes, %d per URL; want at most %d per URL", n, got, got/n, perURL)
	}
	runtime.KeepAlive(rec)
}

// The report of a long list makes no status-code map for a URL without responses, and its JSON
// still shows {} for it, as results always have.
func TestReportOfManyURLsMakesNoMapPerUnvisitedURL(t *testing.T) {
	const n = 20_000
	rec := NewRecorder(manyTargets(n), Options{})
	rec.Record([]loader.Result{
		{Target: 1, Status: 200, Latency: time.Millisecond},
		{Target: 2, Err: loader.ErrTimeout, Latency: time.Second},
	})
	allocs := testing.AllocsPerRun(2, func() {
		_ = rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, RunInfo{}, "x")
	})
	if allocs > n/10 {
		t.Errorf("the report of %d URLs made %.0f allocations; want at most %d", n, allocs, n/10)
	}

	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, RunInfo{}, "x")
	rep.URLs = rep.URLs[:3]
	var b bytes.Buffer
	if err := WriteJSON(&b, &rep); err != nil {
		t.Fatal(err)
	}
	var back struct {
		URLs []struct {
			StatusCodes json.RawMessage `json:"status_codes"`
		} `json:"urls"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{`{}`, `{"200":1}`, `{}`} {
		if got := strings.Join(strings.Fields(string(back.URLs[i].StatusCodes)), ""); got != want {
			t.Errorf("URL %d: status_codes %s, want %s", i, got, want)
		}
	}
}

// A report sets what each URL answered in place: a copy of each URL's figures cost 400 bytes a
// URL reached. Content adds one allocation a URL, the row's own copy of its profile, and the
// recorder reports again as it did.
func TestContentCostsOneAllocationPerURL(t *testing.T) {
	const n = 2_000
	targets := manyTargets(n)
	rec := NewRecorder(targets, Options{})
	results := make([]loader.Result, n)
	profiles := make([]*content.Profile, n)
	for i := range results {
		results[i] = loader.Result{Target: int32(i), Status: 200, Latency: time.Millisecond}
		p := content.Profile{Samples: 1}
		profiles[i] = &p
	}
	rec.Record(results)
	bare := loader.Outcome{Elapsed: time.Second, Users: 1}
	with := bare
	with.Content = profiles
	without := testing.AllocsPerRun(2, func() { rec.Report(bare, RunInfo{}, "x") })
	allocs := testing.AllocsPerRun(2, func() { rec.Report(with, RunInfo{}, "x") })
	if extra := allocs - without; extra > n {
		t.Errorf("content made a report of %d URLs make %.0f more allocations, want at most %d", n, extra, n)
	}
	if rep := rec.Report(bare, RunInfo{}, "x"); rep.URLs[0].Content != nil {
		t.Errorf("a report without content after one with: %+v", rep.URLs[0].Content)
	}
	if rep := rec.Report(with, RunInfo{}, "x"); rep.URLs[n-1].Content == nil || rep.URLs[n-1].Content.Samples != 1 {
		t.Errorf("content of the last URL: %+v", rep.URLs[n-1].Content)
	}
}
