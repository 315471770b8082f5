package loader

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

func rawTarget(t *testing.T, line string) urls.Target {
	t.Helper()
	tg, err := urls.ParseLine(line, urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// A server that closes idle keep-alive connections (as Apache, Node.js and gunicorn do after a
// few seconds) must not turn the next request into a failure: it never reached the server, and
// goes out again on a new connection, counted as resent. Each request goes out once the server
// has closed the connection of the one before, however long the machine took to get there.
func TestResendAfterIdleClose(t *testing.T) {
	t.Parallel()
	for _, tls := range []bool{false, true} {
		name := "http"
		if tls {
			name = "https" // the server's close comes with a TLS alert before it
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			const n = 4
			var hits atomic.Int64
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				hits.Add(1)
				_, _ = io.WriteString(w, "ok")
			}))
			srv.Config.IdleTimeout = 50 * time.Millisecond
			// net/http reports a connection closed once it closed it: the next request then
			// surely finds it closed.
			closed := make(chan struct{}, 2*n) // never full: one connection per request and the test's end
			srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateClosed {
					closed <- struct{}{}
				}
			}
			if tls {
				srv.StartTLS()
			} else {
				srv.Start()
			}
			t.Cleanup(srv.Close)
			send := stepSender(t, Config{Insecure: tls}, []urls.Target{rawTarget(t, srv.URL+"/")})
			var results []Result
			for i := range n {
				if i > 0 {
					await(t, closed, "the idle connection closed by the server")
				}
				r := send(0)
				if r.Err != ErrNone || r.Status != 200 {
					// Without an answer no connection is left for the server to close.
					t.Fatalf("request %d: %+v, want a 200", i, r)
				}
				results = append(results, r)
			}
			// Every request after the first finds its kept-alive connection closed.
			assertResent(t, results, n, n-1, n-1)
			if got := hits.Load(); got != n {
				t.Errorf("server answered %d requests, want %d", got, n)
			}
		})
	}
}

// A server that closes each connection right after its answer, without saying so, races the
// next request: the close is seen before writing or after. Either way the request is resent.
func TestResendAfterSilentClose(t *testing.T) {
	t.Parallel()
	srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
		writeOK(conn)
		return false
	})
	results, _ := run(t, Config{Users: 1, Reps: 10}, []urls.Target{rawTarget(t, srv.url("/"))})
	assertResent(t, results, 10, 9, 9)
	if got := srv.reqs.Load(); got != 10 {
		t.Errorf("server read %d requests, want 10", got)
	}
}

// A request is resent only when the server cannot have acted on it, or its method makes a
// second copy harmless: never after a response byte, never a POST the server read, never on a
// fresh connection.
func TestResendOnlyWhenSafe(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		line     string // the target, {} for the server's URL
		answer   answerFunc
		want     []ErrKind // per request, in order
		resent   int
		srvReads int64
	}{
		{
			name: "GET read by the server and dropped is resent",
			line: "/", answer: closeSecond,
			want: []ErrKind{ErrNone, ErrNone}, resent: 1, srvReads: 3,
		},
		{
			name: "POST read by the server and dropped is a failure",
			line: "/ POST a=1", answer: closeSecond,
			want: []ErrKind{ErrNone, ErrClosed}, resent: 0, srvReads: 2,
		},
		{
			name: "GET answered in part is a failure",
			line: "/", answer: func(conn net.Conn, _ *http.Request, nth int) bool {
				if nth == 0 {
					return writeOK(conn)
				}
				_, _ = io.WriteString(conn, "HTTP/1.1 2")
				return false
			},
			want: []ErrKind{ErrNone, ErrBadResponse}, resent: 0, srvReads: 2,
		},
		{
			name: "GET dropped on a fresh connection is a failure",
			line: "/", answer: func(net.Conn, *http.Request, int) bool { return false },
			want: []ErrKind{ErrClosed, ErrClosed}, resent: 0, srvReads: 2,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newRawServer(t, tc.answer)
			results, _ := run(t, Config{Users: 1, Reps: len(tc.want)}, []urls.Target{rawTarget(t, srv.url(tc.line))})
			if len(results) != len(tc.want) {
				t.Fatalf("%d results, want %d", len(results), len(tc.want))
			}
			resent := 0
			for i, r := range results {
				if r.Err != tc.want[i] {
					t.Errorf("request %d: %v, want %v", i, r.Err, tc.want[i])
				}
				if r.Resent {
					resent++
				}
			}
			if resent != tc.resent {
				t.Errorf("%d resent, want %d", resent, tc.resent)
			}
			if got := srv.reqs.Load(); got != tc.srvReads {
				t.Errorf("server read %d requests, want %d", got, tc.srvReads)
			}
		})
	}
}

// closeSecond answers the first request of a connection and closes it after reading the second.
func closeSecond(conn net.Conn, _ *http.Request, nth int) bool {
	return nth == 0 && writeOK(conn)
}

// assertResent checks that all n requests succeeded with a 200 and that from least to most
// of them went out again.
func assertResent(t *testing.T, results []Result, n, least, most int) {
	t.Helper()
	if len(results) != n {
		t.Fatalf("%d results, want %d", len(results), n)
	}
	got := 0
	for _, r := range results {
		if r.Err != ErrNone || r.Status != 200 {
			t.Errorf("result %+v, want a 200", r)
		}
		if r.Resent {
			got++
		}
	}
	if got < least || got > most {
		t.Errorf("%d resent, want %d to %d", got, least, most)
	}
}

// Over HTTP/2 the client leaves a connection the server closed while idle on its own
// (GOAWAY, or the closed socket seen by its reader), so no request fails either.
func TestHTTP2AfterIdleClose(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		_, _ = io.WriteString(w, "ok")
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Config.IdleTimeout = 50 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	results, _ := run(t, Config{HTTP2: true, Rate: 4, Reps: 4, MaxUsers: 1}, []urls.Target{rawTarget(t, srv.URL+"/")})
	assertResent(t, results, 4, 0, 0)
	if got := hits.Load(); got != 4 {
		t.Errorf("server answered %d requests, want 4", got)
	}
}

// The loader's own reasons for a request without an answer fall under the kinds users know.
func TestClassifyOwnErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		err  error
		want ErrKind
	}{
		{"stale connection, no time left", errStaleConn, ErrClosed},
		{"retired connection, no time left", errRetiredConn, ErrClosed},
		{"status code no final status", errBadStatus, ErrBadResponse},
		{"write failed, no answer", fmt.Errorf("writing the request: %w", syscall.EPIPE), ErrReset},
	}
	for _, tc := range cases {
		if got := classify(tc.err); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
