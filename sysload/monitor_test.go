package sysload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// serverState is what the test exporter reports on one scrape.
type serverState struct {
	load       float64
	totalBytes float64
	availBytes float64
	// Per CPU, two CPUs: user, system, idle, iowait seconds.
	user, system, idle, iowait float64
}

// renderExposition writes a node-exporter page for st, HELP and TYPE lines included.
func renderExposition(st serverState) string {
	var b strings.Builder
	b.WriteString("# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.\n")
	b.WriteString("# TYPE node_cpu_seconds_total counter\n")
	for cpu := range 2 {
		for _, m := range []struct {
			mode string
			v    float64
		}{{"idle", st.idle}, {"iowait", st.iowait}, {"irq", 0}, {"nice", 0}, {"softirq", 0}, {"steal", 0}, {"system", st.system}, {"user", st.user}} {
			fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=\"%d\",mode=%q} %g\n", cpu, m.mode, m.v)
		}
	}
	fmt.Fprintf(&b, "# HELP node_load1 1m load average.\n# TYPE node_load1 gauge\nnode_load1 %g\n", st.load)
	fmt.Fprintf(&b, "# TYPE node_memory_MemAvailable_bytes gauge\nnode_memory_MemAvailable_bytes %g\n", st.availBytes)
	fmt.Fprintf(&b, "# TYPE node_memory_MemTotal_bytes gauge\nnode_memory_MemTotal_bytes %g\n", st.totalBytes)
	return b.String()
}

// sequenceServer serves states[i] on the i-th scrape, then repeats the last one, so its
// counters advance per scrape like a real exporter's. It returns the scrape count.
func sequenceServer(t *testing.T, states []serverState) (url string, scrapes *atomic.Int64) {
	t.Helper()
	scrapes = new(atomic.Int64)
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(scrapes.Add(1)) - 1
		w.Header().Set("Content-Type", textContentType)
		_, _ = w.Write([]byte(renderExposition(states[min(i, len(states)-1)])))
	}))
	return srv.URL + "/metrics", scrapes
}

// Three readings of a 16 GiB, 2-CPU server: idle, under load (the peak), then calmer.
var runStates = []serverState{
	{load: 0.5, totalBytes: 16 << 30, availBytes: 15 << 30, user: 40, system: 10, idle: 440, iowait: 10},
	{load: 3.25, totalBytes: 16 << 30, availBytes: 12 << 30, user: 65, system: 15, idle: 460, iowait: 10},
	{load: 1, totalBytes: 16 << 30, availBytes: 14 << 30, user: 80, system: 20, idle: 480, iowait: 20},
}

func TestMonitorBeforeAndAfter(t *testing.T) {
	t.Parallel()
	url, scrapes := sequenceServer(t, runStates)
	m := Start(testContext(t), newScraper(t, url, 5*time.Second), url, time.Hour)
	if n := scrapes.Load(); n != 1 {
		t.Fatalf("after Start the server saw %d scrapes, want the 1 before reading", n)
	}
	got := m.Stop()
	// Per CPU busy goes 50 -> 80 and total 500 -> 550; two CPUs double both, not the ratio.
	want := Summary{
		Source: url, Samples: 2,
		MaxLoad1: 3.25, PeakMemUsedMB: 4096, MemTotalMB: 16384,
		CPUBusyPercent: 100 * (2*80.0 - 2*50.0) / (2*550.0 - 2*500.0),
	}
	if got != want {
		t.Errorf("Summary =\n %+v\nwant\n %+v", got, want)
	}
}

func TestMonitorSamplesDuringRun(t *testing.T) {
	t.Parallel()
	url, scrapes := sequenceServer(t, runStates)
	m := Start(testContext(t), newScraper(t, url, 5*time.Second), url, 5*time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	// The 4th request may be in flight and abandoned by Stop, but scrapes are sequential,
	// so the three before it have completed.
	for scrapes.Load() < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d scrapes in 10s with a 5ms interval", scrapes.Load())
		}
		time.Sleep(time.Millisecond)
	}
	got := m.Stop()
	// The peak was only on the second scrape, so it shows only if periodic readings count;
	// the last reading is the third state, repeated.
	want := Summary{
		Source: url, Samples: got.Samples,
		MaxLoad1: 3.25, PeakMemUsedMB: 4096, MemTotalMB: 16384,
		CPUBusyPercent: 100 * (2*100.0 - 2*50.0) / (2*600.0 - 2*500.0),
	}
	if got != want {
		t.Errorf("Summary =\n %+v\nwant\n %+v", got, want)
	}
	if n := int(scrapes.Load()); got.Samples < 4 || got.Samples > n {
		t.Errorf("Samples = %d, want at least 4 (before, 2 periodic, after) and at most the %d served", got.Samples, n)
	}
	if again := m.Stop(); again != got {
		t.Errorf("second Stop = %+v, want the first summary %+v", again, got)
	}
}

func TestMonitorFailingServer(t *testing.T) {
	t.Parallel()
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "collector failed", http.StatusInternalServerError)
	}))
	url := srv.URL + "/metrics"
	got := Start(testContext(t), newScraper(t, url, 5*time.Second), url, time.Hour).Stop()
	if got.Samples != 0 || got.Failures != 2 {
		t.Errorf("Samples, Failures = %d, %d; want 0, 2", got.Samples, got.Failures)
	}
	if !strings.Contains(got.FirstError, "500 Internal Server Error") || !strings.Contains(got.FirstError, url) {
		t.Errorf("FirstError = %q, want the status and the URL", got.FirstError)
	}
	if got.MaxLoad1 != 0 || got.PeakMemUsedMB != 0 || got.MemTotalMB != 0 || got.CPUBusyPercent != 0 {
		t.Errorf("figures without samples = %+v, want zeros", got)
	}
}

// scriptedSource answers from a list of results, then repeats the last, to put failures at
// chosen points of a run.
type scriptedSource struct {
	mu      sync.Mutex
	calls   int
	results []error
	sample  Sample
}

func (s *scriptedSource) Sample(ctx context.Context) (Sample, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.results[min(s.calls, len(s.results)-1)]
	s.calls++
	if err != nil {
		return Sample{}, err
	}
	smp := s.sample
	smp.CPUTotalSeconds += float64(s.calls)
	smp.CPUBusySeconds += float64(s.calls)
	return smp, nil
}

func TestMonitorRecordsFailures(t *testing.T) {
	t.Parallel()
	first := errors.New("first failure")
	second := errors.New("second failure")
	base := Sample{Load1: 1.5, MemTotalBytes: 1 << 30, MemAvailableBytes: 1 << 29, CPUTotalSeconds: 100}
	tests := []struct {
		name    string
		results []error
		want    Summary
	}{
		{
			name:    "after fails",
			results: []error{nil, first},
			want:    Summary{Samples: 1, Failures: 1, FirstError: "first failure", MaxLoad1: 1.5, PeakMemUsedMB: 512, MemTotalMB: 1024},
		},
		{
			name:    "before fails",
			results: []error{first, nil},
			want:    Summary{Samples: 1, Failures: 1, FirstError: "first failure", MaxLoad1: 1.5, PeakMemUsedMB: 512, MemTotalMB: 1024},
		},
		{
			name:    "both fail, first error kept",
			results: []error{first, second},
			want:    Summary{Samples: 0, Failures: 2, FirstError: "first failure"},
		},
		{
			// Calls 1 and 2 succeed; each adds one busy second and one total second.
			name:    "both succeed",
			results: []error{nil},
			want:    Summary{Samples: 2, MaxLoad1: 1.5, PeakMemUsedMB: 512, MemTotalMB: 1024, CPUBusyPercent: 100},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := &scriptedSource{results: tc.results, sample: base}
			got := Start(testContext(t), src, "scripted", time.Hour).Stop()
			tc.want.Source = "scripted"
			if got != tc.want {
				t.Errorf("Summary =\n %+v\nwant\n %+v", got, tc.want)
			}
		})
	}
}

// TestMonitorCancelledRunStillSamplesAfter cancels the run's context before Stop, as an
// interrupted load test does: the after reading must still be taken.
func TestMonitorCancelledRunStillSamplesAfter(t *testing.T) {
	t.Parallel()
	url, scrapes := sequenceServer(t, runStates)
	ctx, cancel := context.WithCancel(t.Context())
	m := Start(ctx, newScraper(t, url, 5*time.Second), url, time.Millisecond)
	cancel()
	got := m.Stop()
	if got.Failures != 0 || got.Samples < 2 {
		t.Errorf("Samples, Failures = %d, %d (first error %q); want >= 2, 0", got.Samples, got.Failures, got.FirstError)
	}
	if n := int(scrapes.Load()); got.Samples > n {
		t.Errorf("Samples = %d, more than the %d scrapes served", got.Samples, n)
	}
}

// TestMonitorStopAbandonsHungScrape checks that Stop does not wait out a periodic scrape that
// hangs: that reading is abandoned, and the after reading still fails on its own timeout.
func TestMonitorStopAbandonsHungScrape(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	release := make(chan struct{})
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", textContentType)
			_, _ = w.Write([]byte(renderExposition(runStates[0])))
			return
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release) })
	url := srv.URL + "/metrics"
	m := Start(testContext(t), newScraper(t, url, time.Second), url, time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for calls.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no periodic scrape in 10s with a 1ms interval")
		}
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	got := m.Stop()
	// The scrape hangs until the test ends: the generous bound only tells a Stop that ended
	// it from one that waited, whatever the machine's load.
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("Stop took %v with a hung scrape in flight", elapsed)
	}
	if got.Samples != 1 || got.Failures != 1 {
		t.Errorf("Samples, Failures = %d, %d; want 1 (before), 1 (after timed out)", got.Samples, got.Failures)
	}
}
