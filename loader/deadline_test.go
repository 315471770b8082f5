package loader

import (
	"errors"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// A connection's deadline is set once and kept while the next requests' deadlines fall no more
// than the slack before it; a deadline past it, one far earlier, or none moves it. The times
// are the test's, so that no step depends on how fast the machine runs it.
func TestDeadlineKeptWithinSlack(t *testing.T) {
	t.Parallel()
	c := newWireConn(okServerConn(t))
	const timeout = 5 * time.Second
	c.dl.slack = deadlineSlack(timeout)
	if c.dl.slack != 50*time.Millisecond {
		t.Fatalf("slack %v for a %v timeout, want 50ms", c.dl.slack, timeout)
	}
	base := time.Now().Add(time.Hour)
	ms := time.Millisecond
	steps := []struct {
		name     string
		at       time.Time // the deadline asked for
		wantSets int       // deadlines set on the socket in all, read and write
		wantAt   time.Time // the read deadline set
	}{
		{"first request", base, 2, base.Add(50 * ms)},
		{"a request 10 ms later", base.Add(10 * ms), 2, base.Add(50 * ms)},
		{"a request 50 ms later", base.Add(50 * ms), 2, base.Add(50 * ms)},
		{"just past the deadline set", base.Add(51 * ms), 4, base.Add(101 * ms)},
		{"far earlier", base.Add(-time.Second), 6, base.Add(-time.Second + 50*ms)},
		{"none", time.Time{}, 8, time.Time{}},
		{"none again", time.Time{}, 8, time.Time{}},
		{"one again", base, 10, base.Add(50 * ms)},
	}
	for _, s := range steps {
		if err := c.SetWriteDeadline(s.at); err != nil {
			t.Fatal(err)
		}
		if err := c.SetReadDeadline(s.at); err != nil {
			t.Fatal(err)
		}
		if c.dl.sets != s.wantSets || !c.dl.read.Equal(s.wantAt) || !c.dl.write.Equal(s.wantAt) {
			t.Errorf("%s: %d deadlines set, read at %v, write at %v; want %d at %v", s.name,
				c.dl.sets, c.dl.read.Sub(base), c.dl.write.Sub(base), s.wantSets, s.wantAt.Sub(base))
		}
	}
	// What is kept is what the socket has: a deadline passed ends a read at once.
	if err := c.SetReadDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a read past the deadline: %v, want a timeout", err)
	}
}

// A request on a kept-alive connection whose deadline was kept from the request before still
// fails as a timeout when its answer is late, and not before its timeout.
func TestKeptDeadlineStillTimesOut(t *testing.T) {
	t.Parallel()
	stall := make(chan struct{})
	srv := newRawServer(t, func(conn net.Conn, _ *http.Request, nth int) bool {
		if nth < 5 {
			return writeOK(conn)
		}
		<-stall // the sixth request is never answered
		return false
	})
	t.Cleanup(func() { close(stall) }) // before the server's own cleanup, which waits for it
	tg, err := urls.ParseLine(srv.url("/"), urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const timeout = 300 * time.Millisecond
	results, _ := run(t, Config{Users: 1, Reps: 6, Timeout: timeout}, []urls.Target{tg})
	if len(results) != 6 {
		t.Fatalf("%d results, want 6", len(results))
	}
	for i, r := range results[:5] {
		if r.Err != ErrNone {
			t.Errorf("request %d: %v, want an answer", i, r.Err)
		}
	}
	last := results[5]
	if last.Err != ErrTimeout || last.Latency < timeout {
		t.Errorf("the unanswered request: %v after %v, want a timeout after %v or more", last.Err, last.Latency, timeout)
	}
	if srv.conns.Load() != 1 {
		t.Errorf("%d connections, want 1: the requests did not share one", srv.conns.Load())
	}
}
