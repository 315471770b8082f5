package loader

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// A request body (a `<file` of many megabytes) is one copy shared by every user, read-only:
// no user, request or redirect copies it, over HTTP/1.1 and HTTP/2 alike. What the run
// allocates in all stays far below one body per user. Not parallel: it reads the process's
// allocation counters.
func TestRequestBodyIsShared(t *testing.T) {
	const size = 10 << 20
	const users, reps = 20, 1
	body := make([]byte, size)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	cases := []struct {
		name string
		cfg  Config
		h2c  bool
		path string
		sent int64 // bodies the server receives per request sent
	}{
		{name: "requests", cfg: Config{}, path: "/form", sent: 1},
		{name: "visits", cfg: Config{Cookies: true}, path: "/form", sent: 1},
		{name: "visits resending on 307", cfg: Config{Cookies: true, FollowRedirects: true}, path: "/moved", sent: 2},
		{name: "HTTP/2", cfg: Config{HTTP2: true}, h2c: true, path: "/form", sent: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var whole, partial atomic.Int64
			handle := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n, _ := io.Copy(io.Discard, r.Body) // read and dropped: the server keeps nothing
				if n == size {
					whole.Add(1)
				} else {
					partial.Add(1)
				}
				if r.URL.Path == "/moved" {
					http.Redirect(w, r, "/form", http.StatusTemporaryRedirect)
				}
			})
			srv := newDiscardServer(t, tc.h2c, handle)
			tg := urls.Target{Method: "POST", URL: srv + tc.path, Body: body, Source: "test"}
			cfg := tc.cfg
			cfg.Users, cfg.Reps, cfg.Timeout = users, reps, 45*time.Second

			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			results, _ := run(t, cfg, []urls.Target{tg})
			runtime.ReadMemStats(&after)

			for _, r := range results {
				if r.Err != ErrNone || r.Kind == KindURL && r.Status != 200 && r.Status != 307 {
					t.Fatalf("result %+v", r)
				}
			}
			if got, want := whole.Load(), users*reps*tc.sent; got != want || partial.Load() != 0 {
				t.Fatalf("server got %d whole bodies and %d partial ones, want %d whole", got, partial.Load(), want)
			}
			// Before bodies were shared, each request copied the body: 200 MB here.
			alloc := after.TotalAlloc - before.TotalAlloc
			bound := uint64(3 * size)
			if raceEnabled && tc.cfg.HTTP2 {
				// sync.Pool drops items at random under the race detector, so the HTTP/2
				// stacks' frame buffers are allocated anew: 60 to 80 MB on both ends, still
				// far from the 400 MB the body's copies cost.
				bound = users * size
			}
			if alloc > bound {
				t.Errorf("the run allocated %d MB for a %d MB body and %d users", alloc>>20, size>>20, users)
			}
			t.Logf("the run allocated %.1f MB", float64(alloc)/(1<<20))
		})
	}
}

// newDiscardServer starts a loopback server for handle, in HTTP/2 with prior knowledge when
// h2c is set, and returns its URL. Unlike hitServer it keeps no bodies, so that what a test
// measures of the heap is the client's.
func newDiscardServer(t *testing.T, h2c bool, handle http.Handler) string {
	t.Helper()
	s := httptest.NewUnstartedServer(handle)
	if h2c {
		s.Config.Protocols = new(http.Protocols)
		s.Config.Protocols.SetUnencryptedHTTP2(true)
	}
	s.Start()
	t.Cleanup(s.Close)
	return s.URL
}
