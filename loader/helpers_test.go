package loader

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// collect is a sink that keeps every result.
type collect struct{ results []Result }

func (c *collect) Record(batch []Result) { c.results = append(c.results, batch...) }

// hitServer is a loopback server that counts requests per path and remembers the last body and
// headers it saw for each.
type hitServer struct {
	*httptest.Server
	mu      sync.Mutex
	hits    map[string]int
	bodies  map[string]string
	headers map[string]http.Header
}

func newHitServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request)) *hitServer {
	t.Helper()
	s := &hitServer{hits: map[string]int{}, bodies: map[string]string{}, headers: map[string]http.Header{}}
	s.Server = httptest.NewServer(s.handler(handle))
	t.Cleanup(s.Close)
	return s
}

// handler counts and remembers each request, then answers it with handle (nil: a short text).
func (s *hitServer) handler(handle func(w http.ResponseWriter, r *http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.RequestURI()]++
		s.bodies[r.URL.Path] = string(body)
		s.headers[r.URL.Path] = r.Header.Clone()
		s.mu.Unlock()
		if handle != nil {
			r.Body = io.NopCloser(bytes.NewReader(body)) // read again by handle
			handle(w, r)
			return
		}
		fmt.Fprintf(w, "hello %s", r.URL.Path)
	})
}

func (s *hitServer) count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[key]
}

// pageTargets makes n GET targets /p/0 .. /p/n-1 on base.
func pageTargets(t *testing.T, base string, n int) []urls.Target {
	t.Helper()
	var out []urls.Target
	for i := range n {
		tg, err := urls.ParseLine(fmt.Sprintf("%s/p/%d", base, i), urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tg)
	}
	return out
}

// run builds a loader and runs it to the end, with a hard bound so a broken loader cannot hang
// the test suite.
func run(t *testing.T, cfg Config, targets []urls.Target) ([]Result, Outcome) {
	t.Helper()
	_, results, out := runLoader(t, cfg, targets)
	return results, out
}

// runLoader is run, handing back the loader too, to name the requests of its results.
func runLoader(t *testing.T, cfg Config, targets []urls.Target) (*Loader, []Result, Outcome) {
	t.Helper()
	if cfg.Timeout == 0 {
		// A hang guard: the tests that wait for a timeout set theirs, and every other request
		// is answered in milliseconds, however loaded the machine.
		cfg.Timeout = 30 * time.Second
	}
	l, err := New(cfg, targets)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var c collect
	out := l.Run(ctx, &c)
	if out.Stop == Interrupted {
		t.Fatalf("run hit the test's bound")
	}
	return l, c.results, out
}

// stepSender builds a loader of cfg on targets and returns a function that sends one request to
// target ti, through the whole request path, as a user would, and describes it. Tests that must
// make a server's connection do something between two requests (close, send bytes unasked) and
// wait until it did call it step by step, where a run's pace would race the server.
func stepSender(t *testing.T, cfg Config, targets []urls.Target) func(ti int) Result {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second // a hang guard: every request here is answered at once
	}
	cfg.Users, cfg.Reps = 1, 1 // what New asks of a closed run; the test makes the requests
	l, err := New(cfg, targets)
	if err != nil {
		t.Fatal(err)
	}
	l.start = time.Now()
	x := l.newExchange()
	t.Cleanup(func() {
		x.release()
		l.client.CloseIdleConnections()
	})
	return func(ti int) Result {
		res, _ := l.send(x, ti, 0)
		return res
	}
}

// await waits for ch to deliver or close, at most a hang guard's 30 s; what names what is
// awaited.
func await(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: not after 30 s", what)
	}
}

// snapshot copies the hit counts.
func (s *hitServer) snapshot() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.hits)
}
