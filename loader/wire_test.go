package loader

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// Bytes a server sends on an idle kept-alive connection, such as a second answer nobody asked
// for, are not taken as the answer to the next request: that connection is left for a new one.
// The server writes them once the client has read its answer, so that they wait in the socket
// and not in the client's buffer, and the next request goes out only once they were written
// and the connection has been idle long enough to be looked at.
func TestUnaskedBytesOnIdleConnection(t *testing.T) {
	t.Parallel()
	const n = 4
	read := make(chan struct{})     // the client read an answer: the server may go on
	wrote := make(chan struct{}, n) // the server wrote its unasked bytes
	done := make(chan struct{})     // the test is over: a server still waiting gives up
	srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
		if !writeOK(conn) {
			return false
		}
		select {
		case <-read:
		case <-done:
			return false
		}
		_, err := io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra")
		wrote <- struct{}{}
		return err == nil
	})
	t.Cleanup(func() { close(done) }) // before the server's cleanup, which waits for its handlers
	send := stepSender(t, Config{}, []urls.Target{rawTarget(t, srv.url("/"))})
	var results []Result
	for i := range n {
		r := send(0)
		if r.Err != ErrNone || r.Status != 200 {
			// Without an answer the server is not waiting for it to be read.
			t.Fatalf("request %d: %+v, want a 200", i, r)
		}
		results = append(results, r)
		select {
		case read <- struct{}{}:
		case <-time.After(30 * time.Second):
			t.Fatalf("request %d: the server did not wait for its answer to be read", i)
		}
		await(t, wrote, "the unasked bytes written")
		// The connection is looked at only once idle this long since its answer; sleeping
		// makes sure of that however busy the machine, as a sleep lasts at least that long.
		time.Sleep(idleCheckAfter)
	}
	// Every request after the first finds unasked bytes on its kept-alive connection.
	assertResent(t, results, n, n-1, n-1)
	for _, r := range results {
		if r.BodyBytes != 2 {
			t.Errorf("result %+v: a body of %d bytes, want the 2 of the answer", r, r.BodyBytes)
		}
	}
	if got := srv.reqs.Load(); got != n {
		t.Errorf("server read %d requests, want %d", got, n)
	}
	if got := srv.conns.Load(); got != n {
		t.Errorf("%d connections, want %d: each left once it held unasked bytes", got, n)
	}
}

// Responses whose lines end in a bare LF, which RFC 9112 (2.2) allows a recipient to accept,
// are read like CRLF ones, however their bytes are split.
func TestBareLFResponses(t *testing.T) {
	t.Parallel()
	const answer = "HTTP/1.1 200 OK\nContent-Length: 2\nX-Seen: yes\n\nok"
	cases := []struct {
		name  string
		parts []string
	}{
		{"in one write", []string{answer}},
		{"head split", []string{answer[:20], answer[20:]}},
		{"split before the blank line", []string{answer[:len(answer)-3], answer[len(answer)-3:]}},
		{"mixed line ends", []string{"HTTP/1.1 200 OK\r\nContent-Length: 2\n", "\r\nok"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
				for _, p := range tc.parts {
					if _, err := io.WriteString(conn, p); err != nil {
						return false
					}
					time.Sleep(5 * time.Millisecond) // apart on the wire
				}
				return true
			})
			// The timeout is a hang guard: a head whose end is missed waits for it.
			results, _ := run(t, Config{Users: 1, Reps: 3, Timeout: 30 * time.Second}, []urls.Target{rawTarget(t, srv.url("/"))})
			assertResent(t, results, 3, 0, 0)
			for _, r := range results {
				if r.BodyBytes != 2 {
					t.Errorf("result %+v: a body of %d bytes, want 2", r, r.BodyBytes)
				}
			}
			if got := srv.conns.Load(); got != 1 {
				t.Errorf("%d connections, want 1 kept alive", got)
			}
		})
	}
}

// BenchmarkIdleCheck is what the look at an idle kept-alive connection costs every request
// after a connection's first.
func BenchmarkIdleCheck(b *testing.B) {
	c := newWireConn(idleLoopbackConn(b))
	b.ReportAllocs()
	for b.Loop() {
		if !c.usable() {
			b.Fatal("an idle open connection looks unusable")
		}
	}
}

// cannedConn answers every write with the same response, all in one read.
type cannedConn struct {
	net.Conn
	answer []byte
	unread []byte
}

func (c *cannedConn) Write(p []byte) (int, error) { c.unread = c.answer; return len(p), nil }
func (c *cannedConn) Read(p []byte) (int, error) {
	n := copy(p, c.unread)
	c.unread = c.unread[n:]
	return n, nil
}
func (c *cannedConn) LocalAddr() net.Addr { return &net.TCPAddr{} }

// BenchmarkWireExchange is what following an exchange costs a connection, without the
// network: the clock reading at each request, the status line kept and the head's line ends
// scanned.
func BenchmarkWireExchange(b *testing.B) {
	answer := []byte("HTTP/1.1 200 OK\r\nServer: bench\r\nDate: Tue, 01 Dec 2026 10:00:00 GMT\r\n" +
		"Content-Type: text/html; charset=utf-8\r\nContent-Length: 100\r\nCache-Control: no-cache\r\n\r\n" +
		string(make([]byte, 100)))
	c := newWireConn(&cannedConn{answer: answer})
	req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	buf := make([]byte, 4096)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.Write(req)
		if n, _ := c.Read(buf); n != len(answer) {
			b.Fatalf("read %d bytes, want %d", n, len(answer))
		}
	}
}

// A kept-alive connection is looked at before a request only when it sat idle since its last
// answer, however long that answer took to come: a slow server's busy connections cost no
// system call a request, and one left idle is still checked. The connection's clock is the
// test's, moved by hand, so that no step depends on how fast the machine runs it.
func TestIdleCheckCountsFromTheAnswer(t *testing.T) {
	t.Parallel()
	if !idleCheck {
		t.Skip("this system cannot look at an idle socket")
	}
	c := newWireConn(okServerConn(t))
	var now time.Duration // since the connection was made
	c.since = func(time.Time) time.Duration { return now }
	steps := []struct {
		name      string
		idle      time.Duration // from the previous answer to this request
		slow      time.Duration // from this request to its answer
		wantLooks int           // in all, after this step
	}{
		{"first request, slowly answered", 0, 100 * idleCheckAfter, 0},
		{"at once after a slow answer", 0, 100 * idleCheckAfter, 0},
		{"just short of idle", idleCheckAfter - time.Nanosecond, 0, 0},
		{"after sitting idle", idleCheckAfter, 0, 1},
		{"again at once", 0, 0, 1},
		{"idle a long while", 1000 * idleCheckAfter, 0, 2},
	}
	for _, s := range steps {
		now += s.idle
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		now += s.slow
		const ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" // writeOK's answer
		got := make([]byte, len(ok))
		if _, err := io.ReadFull(c, got); err != nil || string(got) != ok {
			t.Fatalf("%s: answer %q, %v", s.name, got, err)
		}
		if c.looks != s.wantLooks {
			t.Fatalf("%s: looked %d times at the connection, want %d", s.name, c.looks, s.wantLooks)
		}
	}
}
