package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// load describes a synthetic run.
type load struct {
	label     string
	urls      int
	seconds   int
	perSecond int     // requests a second, spread over the URLs in turn
	slowdown  float64 // latency factor of the run's middle tenth (a slow spell), 0 for none
	seed      uint64
}

// synthetic is the result such a run would give, made the way a real run makes it: the
// recorder fed with results. Latencies are log-normal around 20 ms; about 1.4 % of responses
// are 404s, 0.5 % 503s and 0.1 % of requests time out. The seed makes it repeatable.
func synthetic(l load) stats.Report {
	targets := make([]urls.Target, l.urls)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1:8080/shop/item/%d?ref=list", i)}
	}
	rec := stats.NewRecorder(targets, stats.Options{Interval: time.Second})
	rng := rand.New(rand.NewPCG(l.seed, 7))
	batch := make([]loader.Result, 0, l.perSecond)
	for s := range l.seconds {
		batch = batch[:0]
		for i := range l.perSecond {
			start := time.Duration(s)*time.Second + time.Duration(i)*time.Second/time.Duration(l.perSecond)
			latency := 20 * math.Exp(0.6*rng.NormFloat64())
			if l.slowdown > 0 && s >= l.seconds*45/100 && s < l.seconds*55/100 {
				latency *= l.slowdown
			}
			r := loader.Result{
				Start: start, Intended: start,
				Latency:   time.Duration(latency * float64(time.Millisecond)),
				Target:    int32((s*l.perSecond + i) % l.urls),
				User:      int32(i % 50),
				Status:    200,
				BodyBytes: 4000 + int64(rng.IntN(2000)),
			}
			switch x := rng.Float64(); {
			case x < 0.001:
				r.Status, r.BodyBytes, r.Err, r.Latency = 0, 0, loader.ErrTimeout, 30*time.Second
			case x < 0.006:
				r.Status = 503
			case x < 0.02:
				r.Status = 404
			}
			r.Decoded = r.BodyBytes
			batch = append(batch, r)
		}
		rec.Record(batch)
	}
	out := loader.Outcome{
		Started:      time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		Elapsed:      time.Duration(l.seconds) * time.Second,
		Stop:         loader.TimeUp,
		Users:        50,
		Connections:  50,
		ErrorSamples: map[loader.ErrKind]string{loader.ErrTimeout: "timeout after 30s"},
	}
	info := stats.RunInfo{Version: "test", Users: 50, Model: "closed", TimeLimit: float64(l.seconds)}
	return rec.Report(out, info, l.label)
}

// render writes the page of results and fails the test on an error.
func render(tb testing.TB, results []stats.Report, opt Options) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, results, opt); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// TestLargeReport renders the report of an hour at one-second intervals over 500 URLs, the
// size the page is meant to stay quick for, logs its size and render time, and opens it in
// Chromium when there is one.
func TestLargeReport(t *testing.T) {
	testtier.Maths(t)
	testtier.Slow(t)
	rep := synthetic(load{label: "one hour", urls: 500, seconds: 3600, perSecond: 100, slowdown: 4, seed: 1})
	begin := time.Now()
	page := render(t, []stats.Report{rep}, Options{})
	took := time.Since(begin)
	t.Logf("1 h at 1 s intervals, 500 URLs, %d requests: %d bytes (%.2f MiB), rendered in %v",
		rep.Requests, len(page), float64(len(page))/(1<<20), took.Round(time.Millisecond))
	data := pageData(t, page)
	if n := len(data.Runs[0].Timeline.T); n > DefaultMaxPoints || n < DefaultMaxPoints/2 {
		t.Errorf("timeline of %d points, want at most %d and not needlessly fewer", n, DefaultMaxPoints)
	}
	if n := len(data.Runs[0].URLs.Rows); n != 500 {
		t.Errorf("%d URL rows, want 500", n)
	}
	// A page this size opens in a moment; one several times larger means the data grew.
	if len(page) > 4<<20 {
		t.Errorf("page of %d bytes, want under 4 MiB", len(page))
	}
	t.Run("in Chromium", func(t *testing.T) { openLargeReport(t, page) })
}

func BenchmarkWriteHTML(b *testing.B) {
	rep := synthetic(load{label: "ten minutes", urls: 500, seconds: 600, perSecond: 100, seed: 1})
	results := []stats.Report{rep}
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteHTML(&buf, results, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
