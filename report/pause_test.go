package report

import (
	"math"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// steadyRun is a run of the given seconds at 20 requests a second that all succeed in about
// 20 ms, so every interval has a latency and a rate.
func steadyRun(seconds int, started time.Time) stats.Report {
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8080/"}}
	rec := stats.NewRecorder(targets, stats.Options{Interval: time.Second})
	for s := range seconds {
		batch := make([]loader.Result, 20)
		for i := range batch {
			start := time.Duration(s)*time.Second + time.Duration(i)*50*time.Millisecond
			batch[i] = loader.Result{Start: start, Intended: start, Latency: time.Duration(18+i%5) * time.Millisecond,
				Status: 200, BodyBytes: 1000, Decoded: 1000}
		}
		rec.Record(batch)
	}
	out := loader.Outcome{Started: started, Elapsed: time.Duration(seconds) * time.Second, Stop: loader.TimeUp, Users: 1, Connections: 1}
	return rec.Report(out, stats.RunInfo{Version: "test", Users: 1, Model: "closed"}, "series")
}

// series2 is a --repeat series of runs of the given seconds each, started at the given seconds
// after the first (-1 for a run whose start was not saved), combined as the CLI combines them.
func series2(t *testing.T, seconds int, starts ...float64) stats.Report {
	t.Helper()
	first := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var runs []stats.Report
	for _, s := range starts {
		started := time.Time{}
		if s >= 0 {
			started = first.Add(time.Duration(s * float64(time.Second)))
		}
		runs = append(runs, steadyRun(seconds, started))
	}
	rep, err := stats.Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestRepeatPausesAreGaps: the timeline of a --repeat series places each run at the time it
// ran, and the pause between two runs is a gap, no point of any line (a latency or a rate of 0
// would read as an outage), with the lines broken there. Merged points never span a pause.
func TestRepeatPausesAreGaps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		rep       stats.Report
		maxPoints int
		// starts are where the runs' first points must be.
		starts []float64
		step   float64
	}{
		{name: "two runs, a 5 s pause", rep: series2(t, 10, 0, 15), maxPoints: 100, starts: []float64{0, 15}, step: 1},
		{name: "three runs merged in pairs", rep: series2(t, 10, 0, 12, 25), maxPoints: 17, starts: []float64{0, 12, 25}, step: 2},
		{name: "starts not saved: back to back, still apart", rep: series2(t, 10, 0, -1), maxPoints: 100, starts: []float64{0, 10}, step: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tl, err := runTimeline(&tt.rep, tt.maxPoints)
			if err != nil {
				t.Fatal(err)
			}
			if tl.Step != tt.step {
				t.Errorf("step %v s, want %v", tl.Step, tt.step)
			}
			var starts []float64
			gaps := 0
			for i, x := range tl.T {
				if i > 0 && !(x > tl.T[i-1]) {
					t.Fatalf("time goes from %v to %v at point %d: %v", tl.T[i-1], x, i, tl.T)
				}
				latencyGap := math.IsNaN(tl.P50[i]) && math.IsNaN(tl.P90[i]) && math.IsNaN(tl.P99[i]) && math.IsNaN(tl.Max[i])
				rateGap := math.IsNaN(tl.Requests[i]) && math.IsNaN(tl.Failures[i])
				switch {
				case latencyGap && rateGap:
					gaps++
					if i == 0 || i == len(tl.T)-1 {
						t.Errorf("a gap at the edge, point %d", i)
					}
				case latencyGap || rateGap || tl.P50[i] == 0 || tl.Requests[i] == 0:
					t.Errorf("point %d at %v s: p50 %v, requests/s %v; a run of steady load has both", i, x, tl.P50[i], tl.Requests[i])
				}
				if i == 0 || latencyGap && rateGap {
					continue
				}
				if math.IsNaN(tl.P50[i-1]) && math.IsNaN(tl.Requests[i-1]) {
					starts = append(starts, x)
				}
			}
			starts = append([]float64{tl.T[0]}, starts...)
			if gaps != len(tt.starts)-1 {
				t.Errorf("%d gaps, want %d (one per pause): t = %v", gaps, len(tt.starts)-1, tl.T)
			}
			if len(starts) != len(tt.starts) {
				t.Fatalf("runs start at %v, want %v", starts, tt.starts)
			}
			for i := range starts {
				if math.Abs(starts[i]-tt.starts[i]) > 1e-9 {
					t.Errorf("run %d starts at %v s, want %v", i+1, starts[i], tt.starts[i])
				}
			}
		})
	}
}
