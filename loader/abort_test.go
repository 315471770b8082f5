package loader

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// Abort stops a run as its time limit would, with its own reason, counting the requests in
// flight; ActiveUsers counts the users busy meanwhile, in either model, and none once it ended.
func TestAbortAndActiveUsers(t *testing.T) {
	t.Parallel()
	// The timeouts are hang guards: the requests are held until the run has stopped.
	tests := []struct {
		name string
		cfg  Config
	}{
		{name: "closed model", cfg: Config{Users: 3, Timeout: 30 * time.Second}},
		{name: "open model", cfg: Config{Rate: 100, MaxUsers: 3, Reps: 3, Timeout: 30 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			arrived := make(chan struct{}, 3) // a request reached the server
			release := make(chan struct{})    // the server may answer
			srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
				select {
				case arrived <- struct{}{}:
				default: // a request past the first three: the count of results tells
				}
				select {
				case <-release:
				case <-time.After(30 * time.Second):
				}
			})
			l, err := New(tt.cfg, pageTargets(t, srv.URL, 1))
			if err != nil {
				t.Fatal(err)
			}
			busy := make(chan int64, 1)
			go func() {
				defer close(release)                  // whatever happens, so that Run returns
				guard := time.After(30 * time.Second) // a hang guard: ActiveUsers then tells
			wait:
				for range 3 {
					select {
					case <-arrived:
					case <-guard:
						break wait
					}
				}
				busy <- l.ActiveUsers()
				l.Abort()
				l.Abort() // only the first stop counts
				// The run has stopped when Abort returns: the answers come after the stop.
			}()
			var c collect
			out := l.Run(context.Background(), &c)
			if n := <-busy; n != 3 {
				t.Errorf("ActiveUsers with 3 requests held = %d, want 3", n)
			}
			if out.Stop != Aborted || out.Stop.String() != "aborted" {
				t.Fatalf("stop = %v, want aborted", out.Stop)
			}
			if len(c.results) != 3 {
				t.Fatalf("got %d results, want the 3 in flight", len(c.results))
			}
			for _, r := range c.results {
				if !r.AfterStop || r.Status != 200 {
					t.Errorf("result %+v: want a 200 marked AfterStop", r)
				}
			}
			if n := l.ActiveUsers(); n != 0 {
				t.Errorf("ActiveUsers after the run = %d, want 0", n)
			}
		})
	}
}
