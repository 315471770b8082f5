package run

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
)

// newCapacitySite starts a loopback server of known capacity: workers requests served at once,
// each taking service; the rest wait their turn. Its throughput is min(users, workers)/service.
func newCapacitySite(t testing.TB, workers int, service time.Duration) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	slots := make(chan struct{}, workers)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		slots <- struct{}{}
		time.Sleep(service)
		<-slots
		w.Write([]byte("ok\n"))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// A ladder of timed steps against a site of 4 workers taking 40 ms each: every step runs at
// its users for its time, fails nothing, and the whole adds up its steps and matches what the
// site answered. No step takes less than the site's service time. How the rate flattens past
// the knee is a property of the machine as much as of the site: BenchmarkLadderKnee shows it.
func TestLadderOfTimedSteps(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	const workers, service = 4, 40 * time.Millisecond
	srv, hits := newCapacitySite(t, workers, service)
	ladder := []int{1, 2, 4, 8, 16}
	spec := smallSpec(t, srv.URL+"/", 1, 500) // at most 500 requests per user, and 500 ms, per step
	spec.Config.Duration = 500 * time.Millisecond
	spec.Ladder = ladder
	rep, err := Execute(boundedCtx(t), spec, Streams{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Steps) != len(ladder) {
		t.Fatalf("%d steps, want %d", len(rep.Steps), len(ladder))
	}
	if got := hits.Load(); rep.Requests != got {
		t.Errorf("the result counts %d requests, the site answered %d", rep.Requests, got)
	}
	for i, users := range ladder {
		s := &rep.Steps[i]
		if s.Run.Users != users || s.FailedTransactions != 0 {
			t.Errorf("step %d: %d users, %d failed; want %d users and no failure", i+1, s.Run.Users, s.FailedTransactions, users)
		}
		// A machine stalled for a whole step may have completed nothing in it.
		if s.Transactions > 0 && s.Percentiles.P50 < service.Seconds() {
			t.Errorf("step %d: p50 %v s, faster than the site's %v", i+1, s.Percentiles.P50, service)
		}
	}
	if rep.Run.Users != 16 || rep.Transactions != sumOf(rep.Steps, func(r *stats.Report) int64 { return r.Transactions }) {
		t.Errorf("the whole: %d users, %d transactions; want 16 and the steps' sum", rep.Run.Users, rep.Transactions)
	}
}

func sumOf(steps []stats.Report, f func(*stats.Report) int64) int64 {
	var n int64
	for i := range steps {
		n += f(&steps[i])
	}
	return n
}

// Each step is a series of its own under --repeat, and the ladder sends exactly what its steps
// plan: users × reps × repeats per step.
func TestLadderRepeatsEachStep(t *testing.T) {
	t.Parallel()
	srv := newSite(t, nil)
	spec := smallSpec(t, srv.URL+"/", 1, 3)
	spec.Ladder, spec.Repeat = []int{1, 2}, 2
	rep, err := Execute(boundedCtx(t), spec, Streams{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(2*1*3 + 2*2*3); rep.Requests != want || srv.hits.Load() != want {
		t.Errorf("%d requests counted, %d answered, want %d", rep.Requests, srv.hits.Load(), want)
	}
	for i, s := range rep.Steps {
		if len(s.Repeats) != 2 || s.Requests != int64(2*3*(i+1)) {
			t.Errorf("step %d: %d repeats, %d requests", i+1, len(s.Repeats), s.Requests)
		}
	}
}

// A ladder interrupted in its second step reports the steps measured so far, the second's
// requests until the stop included.
func TestLadderInterruptedKeepsTheStepsMeasured(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(boundedCtx(t))
	defer cancel()
	var n atomic.Int64
	srv := newSite(t, func() {
		if n.Add(1) == 5+4 { // the first step's 5, then 4 of the second's
			cancel()
		}
	})
	spec := smallSpec(t, srv.URL+"/", 1, 5)
	spec.Ladder = []int{1, 2, 3}
	rep, err := Execute(ctx, spec, Streams{Stdout: io.Discard, Stderr: io.Discard})
	if !errors.As(err, new(InterruptedError)) {
		t.Fatalf("err %v, want InterruptedError", err)
	}
	if len(rep.Steps) != 2 || rep.Steps[0].Requests != 5 {
		t.Fatalf("%d steps (first %d requests), want 2 and 5", len(rep.Steps), rep.Steps[0].Requests)
	}
	if rep.Requests != srv.hits.Load() {
		t.Errorf("%d requests counted, %d answered", rep.Requests, srv.hits.Load())
	}
}

// The open model's load is its rate: a ladder of users has nothing to step, and is refused
// before anything is sent.
func TestLadderRefusesTheOpenModel(t *testing.T) {
	t.Parallel()
	srv := newSite(t, nil)
	spec := smallSpec(t, srv.URL+"/", 1, 3)
	spec.Config.Rate, spec.Config.MaxUsers = 10, 10
	spec.Ladder = []int{1, 2}
	_, err := Execute(boundedCtx(t), spec, Streams{Stdout: io.Discard, Stderr: io.Discard})
	if !errors.As(err, new(SettingError)) || srv.hits.Load() != 0 {
		t.Errorf("err %v after %d requests, want a SettingError before any", err, srv.hits.Load())
	}
}

// The banner names the steps, a line before each step says which starts, a line after it gives
// its figures, and the text report ends its summary with the ladder's table.
func TestLadderSaysWhatEachStepDoes(t *testing.T) {
	t.Parallel()
	srv := newSite(t, nil)
	spec := smallSpec(t, srv.URL+"/", 1, 2)
	spec.Ladder, spec.Outputs.Quiet = []int{1, 3}, false
	var stdout, stderr bytes.Buffer
	if _, err := Execute(boundedCtx(t), spec, Streams{Stdout: &stdout, Stderr: &stderr}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"** a ladder of 1, 3 users, 2 requests each per step, over 1 URL on ",
		"** step 1 of 2: 1 users\n",
		"Step 1 of 2: 1 users, 2 transactions, ",
		"** step 2 of 2: 3 users\n",
		"Step 2 of 2: 3 users, 6 transactions, ",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "\nLadder:      users ") || !strings.Contains(stdout.String(), "\n                 3 ") {
		t.Errorf("the report lacks the ladder's table:\n%s", stdout.String())
	}
}
