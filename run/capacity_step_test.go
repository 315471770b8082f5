package run

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/capsite"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// startCapsite serves a capacity site for the test's length.
func startCapsite(t testing.TB, cfg capsite.Config) *capsite.Site {
	t.Helper()
	site, err := capsite.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { site.Close() })
	return site
}

// stepOf is the load of a search's steps over url and the search, judged by slo: steps of 1 s
// after 0.5 s of settling, labelled "capsite".
func stepOf(t testing.TB, url string, slo ...string) (*Spec, *CapacitySearch) {
	t.Helper()
	target, err := urls.ParseLine(url, urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var gates []gate.Gate
	for _, expr := range slo {
		g, err := gate.ParseGate(expr)
		if err != nil {
			t.Fatal(err)
		}
		gates = append(gates, g)
	}
	spec := &Spec{Config: loader.Config{MaxUsers: 2000, Timeout: 10 * time.Second}, Targets: []urls.Target{target},
		Outputs: Outputs{Label: "capsite"}}
	return spec, &CapacitySearch{SLO: gates, StepTime: time.Second, Settle: 500 * time.Millisecond}
}

// Below capacity a step counts only what was intended after the settle time, as a run of its
// own: 100 req/s for 1 s after 0.5 s of settling is 100 transactions, 150 served.
func TestMeasureLeavesTheSettleTimeOut(t *testing.T) {
	t.Parallel()
	site := startCapsite(t, capsite.Config{Workers: 8, Service: 20 * time.Millisecond}) // 400 req/s
	spec, search := stepOf(t, site.URL(), "p95<5s")                                     // this test is about what counts, not about the SLO
	got, err := measureStep(context.Background(), spec, nil, search, 100)
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
	site := startCapsite(t, capsite.Config{Workers: 1000, Service: 500 * time.Millisecond})
	spec, search := stepOf(t, site.URL(), "p95<100ms")
	search.StepTime, search.Settle, search.Window = 20*time.Second, 0, 200*time.Millisecond
	got, err := measureStep(context.Background(), spec, nil, search, 200)
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
	spec, search := stepOf(t, site.URL+"/", "p95<5s")
	spec.Outputs.Label = "cut"
	search.StepTime, search.Settle = 20*time.Second, 0
	got, err := measureStep(ctx, spec, nil, search, 50)
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
