package loader

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
)

func TestOpenModelKeepsItsSchedule(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	srv := newHitServer(t, nil)
	results, out := run(t, Config{Rate: 200, MaxUsers: 100, Duration: 2 * time.Second}, pageTargets(t, srv.URL, 5))
	// Requests 0..399 are due before 2 s. One that the stop overtakes is counted as unsent,
	// never lost.
	if got := int64(len(results)) + out.Unsent; got != 400 {
		t.Errorf("%d sent + %d unsent, want 400", len(results), out.Unsent)
	}
	// How many the stop overtakes depends on the machine's load, all of them on one too busy
	// to send a request in the run's 2 s: the sum above holds whatever the split.
	for i, r := range results {
		if r.Status != 200 {
			t.Fatalf("result %d: %+v", i, r)
		}
		if lag := r.Start - r.Intended; lag < 0 {
			t.Fatalf("request started %v before its time", -lag)
		}
	}
	if out.Users > 100 || (len(results) > 0 && out.Users < 1) {
		t.Errorf("%d users for %d requests sent, want 1..100", out.Users, len(results))
	}
}

// engines names the two engines a run can take: on Linux a plain run goes through the event
// loop unless told not to.
var engines = []struct {
	name   string
	noLoop bool
}{{"event loop", false}, {"goroutines", true}}

func TestOpenModelTotalRequests(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			srv := newHitServer(t, nil)
			targets := pageTargets(t, srv.URL, 10)
			results, out := run(t, Config{Rate: 1000, MaxUsers: 50, Reps: 50, noLoop: e.noLoop}, targets)
			if len(results) != 50 || out.Stop != Completed || out.Unsent != 0 {
				t.Errorf("%d results, stop %v, unsent %d; want 50, completed, 0", len(results), out.Stop, out.Unsent)
			}
			for i := range targets {
				if n := srv.count("GET /p/" + itoa(i)); n != 5 {
					t.Errorf("/p/%d hit %d times, want 5 (the list walked in order)", i, n)
				}
			}
			for _, r := range results {
				if !r.Arrival || r.User < 0 || int(r.User) >= out.Users {
					t.Fatalf("result %+v of %d users: want an arrival by one of them", r, out.Users)
				}
			}
		})
	}
}

// A server that stops answering for a while: every request due during the stall waits, and
// the open model counts that wait, where a closed model would record a handful of slow requests.
func TestOpenModelMeasuresFromTheIntendedStart(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	// The stall is timed from the first request the server sees, not from the test's start,
	// so a slow start on a busy machine cannot move it out of the run.
	var first sync.Once
	var start time.Time
	var stalled atomic.Int64
	srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
		first.Do(func() { start = time.Now() })
		since := time.Since(start)
		if since >= time.Second && since < 2*time.Second {
			stalled.Add(1)
			time.Sleep(2*time.Second - since)
		}
	})
	results, _ := run(t, Config{Rate: 50, MaxUsers: 1000, Duration: 3 * time.Second}, pageTargets(t, srv.URL, 1))
	slow := 0
	for _, r := range results {
		if r.ResponseTime() >= 400*time.Millisecond {
			slow++
		}
	}
	// The 25 requests due in the stall's first half second wait at least 0.5 s each, however
	// late a busy machine sends them: their response time counts from when they were due.
	if slow < 20 || stalled.Load() == 0 {
		t.Errorf("%d requests slower than 400 ms, %d stalled; want the stall visible", slow, stalled.Load())
	}
}

func TestOpenModelQueuesAtTheUserCap(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) { time.Sleep(50 * time.Millisecond) })
			// Two users serve at most 40 requests/s; 100/s are due for a second.
			results, out := run(t, Config{Rate: 100, MaxUsers: 2, Duration: time.Second, noLoop: e.noLoop}, pageTargets(t, srv.URL, 1))
			if out.Users != 2 {
				t.Errorf("%d users, want 2", out.Users)
			}
			if got := int64(len(results)) + out.Unsent; got != 100 {
				t.Errorf("%d sent + %d unsent, want the 100 due", len(results), out.Unsent)
			}
			queued, maxWait := 0, time.Duration(0)
			for _, r := range results {
				if r.Queued {
					queued++
					maxWait = max(maxWait, r.Start-r.Intended)
				}
			}
			// Each user's requests take 50 ms one after the other, so by the run's end each has sent at
			// most one per 50 ms of it: about 21 in the second, and a few more if a busy machine fires
			// the stop late. The rest of the 100 due are unsent, and the third due already finds both
			// users busy.
			mostSent := 2 * int64(out.Elapsed/(50*time.Millisecond))
			if queued == 0 || maxWait <= 0 || out.Unsent < 100-mostSent {
				t.Errorf("queued %d (longest wait %v), unsent %d in %v: want the cap's backlog visible", queued, maxWait, out.Unsent, out.Elapsed)
			}
		})
	}
}

func TestClosedModelRamp(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, nil)
	results, _ := run(t, Config{Users: 4, Reps: 1, Ramp: 400 * time.Millisecond}, pageTargets(t, srv.URL, 4))
	if len(results) != 4 {
		t.Fatalf("%d results, want 4", len(results))
	}
	for _, r := range results {
		// User u joins at u/4 of the ramp.
		if want := time.Duration(r.User) * 100 * time.Millisecond; r.Start < want {
			t.Errorf("user %d started at %v, before its ramp slot %v", r.User, r.Start, want)
		}
	}
}

// Extreme rates end with the run: what the stop left unsent is computed, not counted one by one
// (2·10¹¹ requests at a trillion a second), and a schedule too slow for its second request
// does not wrap around into the past.
func TestOpenModelAtExtremeRates(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, nil)
	tests := []struct {
		name string
		cfg  Config
		want int64 // sent + unsent: the requests due before the end
	}{
		{"a trillion a second", Config{Rate: 1e12, MaxUsers: 4, Duration: 200 * time.Millisecond}, 2e11},
		// Shard 1 of 3 owns requests 1, 4, 7... of the 2·10¹¹.
		{"a trillion a second, one shard", Config{Rate: 1e12, MaxUsers: 4, Duration: 200 * time.Millisecond, Shard: 1, Shards: 3}, 66_666_666_667},
		{"one request in 316 years", Config{Rate: 1e-10, MaxUsers: 4, Duration: 200 * time.Millisecond}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			done := make(chan struct{})
			var results []Result
			var out Outcome
			go func() {
				defer close(done)
				results, out = run(t, tc.cfg, pageTargets(t, srv.URL, 3))
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the run did not end")
			}
			if got := int64(len(results)) + out.Unsent; got != tc.want {
				t.Errorf("%d sent + %d unsent = %d, want %d", len(results), out.Unsent, got, tc.want)
			}
		})
	}
}

// ownedBefore agrees with ownsRequest, request by request.
func TestOwnedBeforeMatchesOwnsRequest(t *testing.T) {
	t.Parallel()
	for shards := range 5 {
		for shard := range max(shards, 1) {
			c := Config{Shard: shard, Shards: shards}
			var want int64
			for n := range int64(50) {
				if got := ownedBefore(&c, n); got != want {
					t.Fatalf("shard %d of %d: ownedBefore(%d) = %d, want %d", shard, shards, n, got, want)
				}
				if c.ownsRequest(n) {
					want++
				}
			}
		}
	}
}
