package capacity

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/internal/capsite"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// startSite serves a capacity site of 8 workers of 20 ms: 400 req/s.
func startSite(t *testing.T) *capsite.Site {
	t.Helper()
	site, err := capsite.Start(capsite.Config{Workers: 8, Service: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { site.Close() })
	return site
}

func measurer(t testing.TB, site *capsite.Site, slo ...string) *Measurer {
	t.Helper()
	target, err := urls.ParseLine(site.URL(), urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &Measurer{
		Config:   loader.Config{MaxUsers: 2000, Timeout: 10 * time.Second},
		Targets:  []urls.Target{target},
		StepTime: time.Second, Settle: 500 * time.Millisecond,
		SLO: mustGates(t, slo...), Label: "capsite",
	}
}

// Below capacity a step counts only what was intended after the settle time, as a run of its
// own: 100 req/s for 1 s after 0.5 s of settling is 100 transactions, 150 served.
func TestMeasureLeavesTheSettleTimeOut(t *testing.T) {
	t.Parallel()
	site := startSite(t)
	m := measurer(t, site, "p95<5s") // this test is about what counts, not about the SLO
	got, err := m.Measure(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	rep := got.Report
	if got.EndedEarly {
		t.Fatalf("ended early at a quarter of the capacity: p95 %v s", rep.Percentiles.P95)
	}
	// An arrival due as the run stopped may be left unsent when the machine is busy; it is
	// counted, so the step's arrivals still add up.
	if rep.Schedule == nil || rep.Transactions+rep.Schedule.Unsent != 100 || rep.FailedTransactions != 0 {
		t.Fatalf("%d transactions (%d failed), schedule %+v; want 100 arrivals after the settle time", rep.Transactions, rep.FailedTransactions, rep.Schedule)
	}
	if site.Served() != 50+rep.Transactions {
		t.Fatalf("the site served %d, want the settle time's 50 and the step's %d", site.Served(), rep.Transactions)
	}
	if rep.Run.Rate != 100 || rep.Run.Model != stats.ModelOpen || rep.Run.TimeLimit != 1 || rep.Label != "capsite" {
		t.Fatalf("run info %+v label %q", rep.Run, rep.Label)
	}
	if rep.Percentiles.P50 < 0.02 {
		t.Fatalf("p50 %v s, faster than the 20 ms service time", rep.Percentiles.P50)
	}
}

// A site that takes 500 ms over every request breaks p95<100ms badly in every window, however
// fast the machine: the step ends after two windows, long before the 4 000 requests of its
// 20 s. (The bound on what was served only guards against a step that never ends early.)
func TestMeasureEndsABadStepEarly(t *testing.T) {
	t.Parallel()
	site, err := capsite.Start(capsite.Config{Workers: 1000, Service: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { site.Close() })
	m := measurer(t, site, "p95<100ms")
	m.StepTime, m.Settle, m.Window = 20*time.Second, 0, 200*time.Millisecond
	got, err := m.Measure(context.Background(), 200)
	if err != nil {
		t.Fatal(err)
	}
	if !got.EndedEarly {
		t.Fatalf("not ended early with every request over the SLO: p95 %v s", got.Report.Percentiles.P95)
	}
	if got.Report.Transactions == 0 || got.Report.Percentiles.P95 < 0.5 {
		t.Fatalf("the step's figures: %d transactions, p95 %v s; want the bad windows'", got.Report.Transactions, got.Report.Percentiles.P95)
	}
	if served := site.Served(); served >= 200*20 {
		t.Fatalf("the site served %d, a whole step's worth", served)
	}
}

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
			w := &watch{next: stats.NewRecorder(targets, stats.Options{}), window: time.Second,
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

// A step cut by its context comes back with what was measured, marked partial, and the
// context's error. The site cuts it itself, at the 10th request it is sent.
func TestMeasureKeepsAPartialStep(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 10 {
			cancel()
		}
		w.Write([]byte("ok\n"))
	}))
	t.Cleanup(site.Close)
	target, err := urls.ParseLine(site.URL+"/", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := &Measurer{Config: loader.Config{MaxUsers: 100, Timeout: 10 * time.Second}, Targets: []urls.Target{target},
		StepTime: 20 * time.Second, SLO: mustGates(t, "p95<5s"), Label: "cut"}
	got, err := m.Measure(ctx, 50)
	if !errors.Is(err, context.Canceled) || !got.Partial || got.EndedEarly {
		t.Fatalf("err %v, partial %v, ended early %v; want the step cut and kept", err, got.Partial, got.EndedEarly)
	}
	if got.Report.Run.Rate != 50 || got.Report.Label != "cut" {
		t.Fatalf("run %+v label %q", got.Report.Run, got.Report.Label)
	}
	if served := n.Load(); served >= 50*20 {
		t.Fatalf("the site was sent %d requests, a whole step's worth", served)
	}
}
