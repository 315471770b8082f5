package faultsite

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestNoGoroutineLeak counts goroutines across the process, so it runs without
// t.Parallel: sequential tests finish before any parallel one is let go, which keeps
// every other test's goroutines out of the count.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	client := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	for _, path := range []string{
		"/ok", "/slow?ms=10", "/status?code=418", "/burst", "/burst", "/close-after?n=2",
		"/close-after?n=2", "/huge?bytes=1048576", "/nope",
		"/reset-before", "/reset-after-headers", "/bad-status", "/garbage", "/bad-chunked", "/short-body",
	} {
		if resp, err := client.Get(s.URL(path)); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}

	// Waiting endpoints: some cut by their client, some by GoDown, some by Close.
	var clients sync.WaitGroup
	wait := func(path string, leave time.Duration) {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Error(err)
			return
		}
		clients.Go(func() {
			defer c.Close()
			_, _ = io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: x\r\n\r\n")
			_ = c.SetReadDeadline(time.Now().Add(leave))
			_, _ = io.Copy(io.Discard, bufio.NewReader(c))
		})
	}
	all := []string{"/hang", "/stall-body", "/trickle", "/slow?ms=60000", "/huge"}
	for _, p := range all {
		wait(p, 100*time.Millisecond)
	}
	for _, p := range all {
		wait(p, time.Minute)
	}
	waitFor(t, "the waiting handlers", 20*time.Second, func() bool { return s.active.Load() >= int64(len(all)) })
	if err := s.GoDown(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the site to come back", 20*time.Second, func() bool {
		resp, err := client.Get(s.URL("/ok"))
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	for _, p := range all {
		wait(p, time.Minute)
	}
	waitFor(t, "the waiting handlers", 20*time.Second, func() bool { return s.active.Load() == int64(len(all)) })

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	clients.Wait()
	tr.CloseIdleConnections()

	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before Start, %d after Close:\n%s",
				before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHugeDoesNotAllocatePerWrite serves /huge into a writer that drops the bytes, so
// that only the handler's own allocations are counted: they must not grow with the size.
// It runs without t.Parallel because allocation counts are process-wide.
func TestHugeDoesNotAllocatePerWrite(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	allocs := func(n string) float64 {
		r, err := http.NewRequest("GET", "/huge?bytes="+n, nil)
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(3, func() { s.serveHuge(discardWriter{http.Header{}}, r, 0) })
	}
	small, big := allocs("1"), allocs("268435456") // 256 MiB is 4096 writes
	if big > small+64 {
		t.Errorf("%v allocations for 256 MiB against %v for one byte", big, small)
	}
}

// discardWriter is an http.ResponseWriter that forgets what it is given.
type discardWriter struct{ h http.Header }

func (d discardWriter) Header() http.Header         { return d.h }
func (d discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d discardWriter) WriteHeader(int)             {}
