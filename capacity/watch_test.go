package capacity

import (
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

func TestRelaxed(t *testing.T) {
	t.Parallel()
	got := relaxed(mustGates(t, "p95<500ms", "trate>=100", "failed==0", "error_rate<=1"))
	want := []float64{1, 50, 2}
	if len(got) != len(want) {
		t.Fatalf("relaxed %+v, want %d gates", got, len(want))
	}
	for i, g := range got {
		if g.Value != want[i] {
			t.Errorf("gate %s relaxed to %v, want %v", g.Expr, g.Value, want[i])
		}
	}
}

// One bad window is a hiccup; two in a row are a queue: only they end the step.
func TestWatchNeedsBadWindowsInARow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		windows []time.Duration // each window's response time, 50 results a window
		fire    int             // the window whose end fires, -1 for none
	}{
		{"all good", []time.Duration{10, 10, 10, 10}, -1},
		{"one hiccup", []time.Duration{10, 300, 10, 300, 10}, -1},
		{"a queue", []time.Duration{10, 300, 400, 10}, 2},
		{"from the start", []time.Duration{500, 600, 700}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stopped := -1
			window := 0
			targets := []urls.Target{{URL: "http://127.0.0.1/"}}
			w := &Watch{next: stats.NewRecorder(targets, stats.Options{}), window: time.Second,
				bad: relaxed(mustGates(t, "p95<100ms")), targets: targets,
				stop: func() { stopped = window - 1 }}
			// Each window's results end within it; the first result of the next window judges it.
			for i, rt := range append(tc.windows, 10) {
				window = i
				batch := make([]loader.Result, 50)
				for k := range batch {
					start := time.Duration(i)*time.Second + time.Duration(k)*time.Millisecond
					batch[k] = loader.Result{Status: 200, Intended: start, Start: start, Latency: rt * time.Millisecond}
				}
				w.Record(batch)
			}
			if stopped != tc.fire || w.fired != (tc.fire >= 0) {
				t.Fatalf("stopped after window %d (fired %v), want %d", stopped, w.fired, tc.fire)
			}
		})
	}
}
