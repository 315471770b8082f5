package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// timelineRun is a run of 3.5 s whose transactions end in intervals 0, 1 and 3 of one second,
// none in interval 2, with failures and a page visit that the histograms must leave out.
func timelineRun(started time.Time) stats.Report {
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8080/a", Source: "u:1"}}
	rec := stats.NewRecorder(targets, stats.Options{Interval: time.Second})
	ms := time.Millisecond
	var batch []loader.Result
	for i := range 200 {
		at := time.Duration(i%4) * time.Second // interval 2 gets only failures
		r := loader.Result{Intended: at, Start: at, Latency: time.Duration(1+i) * ms, Status: 200, User: int32(i % 3)}
		if i%4 == 2 {
			r.Status, r.Err = 0, loader.ErrRefused
		}
		batch = append(batch, r)
	}
	batch = append(batch,
		loader.Result{Start: 3 * time.Second, Intended: 3 * time.Second, Latency: 400 * ms, Status: 503},
		loader.Result{Start: 0, Latency: 3 * time.Second, Status: 200, Kind: loader.KindPage})
	rec.Record(batch)
	return rec.Report(loader.Outcome{Started: started, Elapsed: 3500 * ms, Stop: loader.Completed, Users: 3},
		stats.RunInfo{Version: "test"}, "timeline")
}

// readHdrLog reads an interval log back with hdrhistogram-go's own reader.
func readHdrLog(t *testing.T, log []byte) []*hdr.Histogram {
	t.Helper()
	r := hdr.NewHistogramLogReader(bytes.NewReader(log))
	var out []*hdr.Histogram
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatalf("read interval %d: %v", len(out)+1, err)
		}
		if h == nil {
			return out
		}
		out = append(out, h)
	}
}

func TestHdrLogRoundTrip(t *testing.T) {
	t.Parallel()
	first := time.Date(2026, 12, 1, 10, 0, 0, 437_000_000, time.UTC)
	second := first.Add(9*time.Second + 250*time.Millisecond)
	series, err := stats.Combine([]stats.Report{timelineRun(first), timelineRun(second)})
	if err != nil {
		t.Fatal(err)
	}
	single := timelineRun(first)
	tests := []struct {
		name string
		rep  *stats.Report
		runs []stats.Report // what the intervals come from, in order
	}{
		{"one run", &single, []stats.Report{single}},
		{"repeat series at each run's own time", &series, series.Repeats},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := WriteHdrLog(&b, tt.rep); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"#[StartTime: ", "#[BaseTime: ", "MICROSECONDS",
				`"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"`} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("log lacks %q:\n%s", want, b.String())
				}
			}
			got := readHdrLog(t, b.Bytes())
			var points []stats.TimelinePoint
			var starts []int64
			for _, run := range tt.runs {
				for _, p := range run.Timeline {
					points = append(points, p)
					starts = append(starts, run.Run.StartedAt.UnixMilli()+wholeMillis(p.Start))
				}
			}
			if len(got) != len(points) {
				t.Fatalf("%d intervals, want %d (the timeline's points)", len(got), len(points))
			}
			var total int64
			for i, h := range got {
				total += h.TotalCount()
				checkInterval(t, i, h, points[i], starts[i])
			}
			if total != tt.rep.Transactions {
				t.Errorf("intervals hold %d values, want the run's %d transactions", total, tt.rep.Transactions)
			}
		})
	}
}

// checkInterval compares an interval read back with the timeline point it was written from.
func checkInterval(t *testing.T, i int, h *hdr.Histogram, p stats.TimelinePoint, startMs int64) {
	t.Helper()
	if h.TotalCount() != p.Transactions {
		t.Errorf("interval %d: %d values, want %d transactions", i, h.TotalCount(), p.Transactions)
	}
	// The reader rebuilds absolute times through float seconds, which can lose a millisecond.
	if d := h.StartTimeMs() - startMs; d < -1 || d > 1 {
		t.Errorf("interval %d starts at %d ms, want %d", i, h.StartTimeMs(), startMs)
	}
	if p.Histogram == "" {
		return
	}
	want, err := hdr.Decode([]byte(p.Histogram))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []float64{50, 90, 99, 99.9, 100} {
		if g, w := h.ValueAtQuantile(q), want.ValueAtQuantile(q); g != w {
			t.Errorf("interval %d: p%v = %d us, want %d", i, q, g, w)
		}
	}
}

func TestHdrLogNeedsStartTime(t *testing.T) {
	t.Parallel()
	rep := timelineRun(time.Time{})
	if err := WriteHdrLog(&bytes.Buffer{}, &rep); !errors.Is(err, ErrNoStartTime) {
		t.Errorf("err = %v, want ErrNoStartTime", err)
	}
}
