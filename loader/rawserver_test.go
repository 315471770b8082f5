package loader

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
)

// rawServer is a loopback HTTP/1.1 server on a bare socket, for answers net/http would never
// send. It reads each request whole and counts it before handing it to answer, which writes
// whatever it likes on the connection; answer returns false to close the connection.
type rawServer struct {
	addr  string
	reqs  atomic.Int64 // requests read, on every connection
	conns atomic.Int64 // connections accepted
}

// answerFunc writes the answer to the nth request (from 0) of its connection.
type answerFunc func(conn net.Conn, req *http.Request, nth int) (keep bool)

func newRawServer(t *testing.T, answer answerFunc) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Add(1)
			mu.Lock()
			open = append(open, conn)
			mu.Unlock()
			wg.Go(func() { s.serve(conn, answer) })
		}
	})
	return s
}

func (s *rawServer) serve(conn net.Conn, answer answerFunc) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	for nth := 0; ; nth++ {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		if _, err := io.Copy(io.Discard, req.Body); err != nil {
			return
		}
		s.reqs.Add(1)
		if !answer(conn, req, nth) {
			return
		}
	}
}

// url is the server's address as an http URL with path p.
func (s *rawServer) url(p string) string { return "http://" + s.addr + p }

// answering is an answerFunc that writes s to every request, and keeps the connection while
// it can write.
func answering(s string) answerFunc {
	return func(c net.Conn, _ *http.Request, _ int) bool {
		_, err := io.WriteString(c, s)
		return err == nil
	}
}

// answeringOnce is an answerFunc that writes s to a request, then closes the connection.
func answeringOnce(s string) answerFunc {
	return func(c net.Conn, _ *http.Request, _ int) bool {
		_, _ = io.WriteString(c, s)
		return false
	}
}

// writeOK answers with a short kept-alive 200.
func writeOK(conn net.Conn) bool {
	_, err := io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	return err == nil
}

// serveLoopback hands every connection made to a new loopback listener to handle, on a
// goroutine of its own, until the test ends; it returns the listener's address.
func serveLoopback(tb testing.TB, handle func(net.Conn)) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // the test is over
			}
			go handle(c)
		}
	}()
	return ln.Addr().String()
}

// okServerConn is a connection to a raw server that answers every request 200, closed when the
// test ends.
func okServerConn(t *testing.T) net.Conn {
	srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool { return writeOK(conn) })
	conn, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// idleLoopbackConn is a connection to a loopback listener that never reads or answers, for
// benchmarks of what a socket's own settings cost; both are closed when the benchmark ends.
func idleLoopbackConn(tb testing.TB) net.Conn {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	return conn
}
