package faultsite

import (
	"net"
	"sync"
	"testing"
	"time"
)

// waitingPaths are the endpoints whose handlers wait, and so could outlive their client.
func waitingPaths() []struct{ name, path string } {
	return []struct{ name, path string }{
		{"hang", "/hang"},
		{"stall-body", "/stall-body"},
		{"trickle", "/trickle"},
		{"slow", "/slow?ms=60000"},
		{"huge", "/huge"},
	}
}

func TestHandlersEndWhenClientLeaves(t *testing.T) {
	t.Parallel()
	for _, tt := range waitingPaths() {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			c := rawRequest(t, s.Addr(), tt.path)
			waitFor(t, "the handler to start", 20*time.Second, func() bool { return s.active.Load() == 1 })
			c.Close()
			waitFor(t, "the handler to end", 20*time.Second, func() bool { return s.active.Load() == 0 })
		})
	}
}

func TestCloseEndsWaitingHandlers(t *testing.T) {
	t.Parallel()
	for _, tt := range waitingPaths() {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			c := rawRequest(t, s.Addr(), tt.path)
			waitFor(t, "the handler to start", 20*time.Second, func() bool { return s.active.Load() == 1 })
			// The hanging kinds must get no late answer when Close wakes them.
			before, _ := readFor(c, 50*time.Millisecond)
			start := time.Now()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			// The handlers would wait a minute or forever: the generous bound tells a Close
			// that woke them from one that waited, whatever the machine's load.
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("Close took %v: it waited for the handlers", d)
			}
			if n := s.active.Load(); n != 0 {
				t.Errorf("%d handlers still running after Close", n)
			}
			after, err := readFor(c, 10*time.Second)
			if isTimeout(err) {
				t.Fatalf("connection still open 10 s after Close")
			}
			if (tt.path == "/hang" || tt.path == "/slow?ms=60000") && len(before)+len(after) != 0 {
				t.Errorf("client got %q after Close, want nothing", append(before, after...))
			}
		})
	}
}

func TestCloseIsIdempotent(t *testing.T) {
	t.Parallel()
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = s.Close() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Close %d: %v", i, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close after Close: %v", err)
	}
	if _, err := net.Dial("tcp", s.Addr()); !isRefused(err) {
		t.Errorf("dial after Close: %v, want connection refused", err)
	}
}

func TestStartGivesLoopbackURLs(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	host, port, err := net.SplitHostPort(s.Addr())
	if err != nil || host != "127.0.0.1" || port == "0" {
		t.Fatalf("Addr() = %q, want 127.0.0.1 and a real port", s.Addr())
	}
	if got, want := s.URL("/hang"), "http://127.0.0.1:"+port+"/hang"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	other := startSite(t)
	if other.Addr() == s.Addr() {
		t.Errorf("two sites share %s", s.Addr())
	}
}
