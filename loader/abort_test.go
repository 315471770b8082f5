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
	tests := []struct {
		name string
		cfg  Config
	}{
		{name: "closed model", cfg: Config{Users: 3, Timeout: 10 * time.Second}},
		{name: "open model", cfg: Config{Rate: 100, MaxUsers: 3, Reps: 3, Timeout: 10 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
				select {
				case <-release:
				case <-time.After(10 * time.Second):
				}
			})
			l, err := New(tt.cfg, pageTargets(t, srv.URL, 1))
			if err != nil {
				t.Fatal(err)
			}
			busy := make(chan int64, 1)
			go func() {
				deadline := time.Now().Add(8 * time.Second)
				for srv.count("GET /p/0") < 3 && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
				busy <- l.ActiveUsers()
				l.Abort()
				l.Abort() // only the first stop counts
				time.Sleep(50 * time.Millisecond)
				close(release)
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
