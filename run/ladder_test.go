package run

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

// newCapacitySite starts a loopback server of known capacity: workers requests served at once,
// each taking service; the rest wait their turn. Its throughput is min(users, workers)/service.
func newCapacitySite(t *testing.T, workers int, service time.Duration) (*httptest.Server, *atomic.Int64) {
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

// A ladder against a site of 4 workers taking 40 ms each shows the knee: the rate rises with
// the users up to 4 / 40 ms = 100/s and flattens beyond, while every step's figures obey
// Little's law (users = rate × response time, the queue included). The site's capacity is low
// so that the machine's CPU, shared with other tests, never is the limit.
func TestLadderShowsTheKnee(t *testing.T) {
	t.Parallel()
	const workers, service = 4, 40 * time.Millisecond
	srv, hits := newCapacitySite(t, workers, service)
	ladder := []int{1, 2, 4, 8, 16}
	spec := smallSpec(t, srv.URL+"/", 1, 500) // at most 500 requests per user, and 2 s, per step
	spec.Config.Duration = 2 * time.Second
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
	rate := make([]float64, len(ladder))
	for i, users := range ladder {
		s := &rep.Steps[i]
		rate[i] = s.TransactionRate
		t.Logf("%2d users: %6.1f/s, %5.1f ms, Little %.2f", users, s.TransactionRate, s.ResponseTime*1000, s.Little())
		if s.Run.Users != users || s.FailedTransactions != 0 {
			t.Errorf("step %d: %d users, %d failed; want %d users and no failure", i+1, s.Run.Users, s.FailedTransactions, users)
		}
		if ceiling := float64(min(users, workers)) / service.Seconds(); s.TransactionRate > ceiling*1.05 {
			t.Errorf("%d users: %.1f/s, beyond the site's %.0f/s", users, s.TransactionRate, ceiling)
		}
		if l := s.Little(); math.Abs(l-1) > 0.15 {
			t.Errorf("%d users: Little's law ratio %.2f, want 1 within 15 %%", users, l)
		}
	}
	if !(rate[0] < rate[1] && rate[1] < rate[2]) {
		t.Errorf("up to the 4 workers the rate should rise with the users: %.1f", rate)
	}
	if rate[0] >= rate[3]/2 {
		t.Errorf("1 user made %.1f/s, 8 users %.1f/s: want less than half", rate[0], rate[3])
	}
	// Past the knee, doubling the users adds no rate, only queueing. A starved machine (the CPU
	// is shared with other tests) stretches the site's 40 ms and only ever lowers a rate, so the
	// bound below is loose and the bounds above are tight.
	if rate[3] > rate[2]*1.3 || rate[4] > rate[3]*1.3 || rate[4] < rate[3]*0.5 {
		t.Errorf("beyond the knee the rate should stay flat: 4, 8, 16 users %.1f, %.1f, %.1f/s", rate[2], rate[3], rate[4])
	}
	if rt4, rt16 := rep.Steps[2].ResponseTime, rep.Steps[4].ResponseTime; rt16 < 2.5*rt4 {
		t.Errorf("16 users wait behind the 4 workers: response time %.1f ms, want at least 2.5 x the 4 users' %.1f ms", rt16*1000, rt4*1000)
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
