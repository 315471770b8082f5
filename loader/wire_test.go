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
func TestUnaskedBytesOnIdleConnection(t *testing.T) {
	t.Parallel()
	srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
		if !writeOK(conn) {
			return false
		}
		// Well before the next request, which comes 250 ms after this one.
		time.Sleep(10 * time.Millisecond)
		_, err := io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra")
		return err == nil
	})
	results, _ := run(t, Config{Rate: 4, Reps: 4, MaxUsers: 1}, []urls.Target{rawTarget(t, srv.url("/"))})
	assertResent(t, results, 4, 1, 3)
	for _, r := range results {
		if r.BodyBytes != 2 {
			t.Errorf("result %+v: a body of %d bytes, want the 2 of the answer", r, r.BodyBytes)
		}
	}
	if got := srv.reqs.Load(); got != 4 {
		t.Errorf("server read %d requests, want 4", got)
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
			results, _ := run(t, Config{Users: 1, Reps: 3, Timeout: 2 * time.Second}, []urls.Target{rawTarget(t, srv.url("/"))})
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	c := newWireConn(conn)
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
// system call a request, and one left idle is still checked.
func TestIdleCheckCountsFromTheAnswer(t *testing.T) {
	t.Parallel()
	const slow, idleAfter = 300 * time.Millisecond, 200 * time.Millisecond
	srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
		time.Sleep(slow)
		return writeOK(conn)
	})
	conn, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := newWireConn(conn)
	c.idleAfter = idleAfter
	exchange := func() {
		t.Helper()
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		const ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" // writeOK's answer
		got := make([]byte, len(ok))
		if _, err := io.ReadFull(c, got); err != nil || string(got) != ok {
			t.Fatalf("answer %q, %v", got, err)
		}
	}
	steps := []struct {
		name      string
		idle      time.Duration // before the request
		wantLooks int
	}{
		{"first request", 0, 0},
		{"at once after a slow answer", 0, 0},
		{"again at once", 0, 0},
		{"after sitting idle", idleAfter + 50*time.Millisecond, 1},
	}
	for _, s := range steps {
		time.Sleep(s.idle)
		exchange()
		if c.looks != s.wantLooks {
			t.Fatalf("%s: looked %d times at the connection, want %d", s.name, c.looks, s.wantLooks)
		}
	}
}
