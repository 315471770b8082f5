package live

import (
	"testing"
	"time"

	"github.com/webload/webload/loader"
)

func TestLiveFigures(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var next collectSink
	l := NewFigures(&next, time.Second, start)
	batch := make([]loader.Result, 0, 100)
	for i := range 100 {
		r := loader.Result{Status: 200, Latency: time.Duration(i+1) * time.Millisecond}
		if i%10 == 0 {
			r.Status = 503
		}
		batch = append(batch, r)
	}
	l.Record(batch)
	if f := l.Figures(start.Add(500 * time.Millisecond)); f.Requests != 100 || f.Failures != 10 || f.HaveInterval {
		t.Errorf("mid-interval figures %+v", f)
	}
	f := l.Figures(start.Add(2 * time.Second))
	// 100 requests over the 2 s since the interval began; p99 of the 90 successes is 100 ms.
	if !f.HaveInterval || f.Rate != 50 || f.P99 < 99*time.Millisecond || f.P99 > 101*time.Millisecond {
		t.Errorf("figures after the interval %+v", f)
	}
	if next.n != 100 {
		t.Errorf("passed on %d results, want 100", next.n)
	}
	if f := l.Figures(start.Add(3 * time.Second)); f.Rate != 0 || f.P99 != 0 || f.Requests != 100 {
		t.Errorf("an interval without requests: %+v", f)
	}
}
