package loader

import (
	"crypto/tls"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// resumeServer is a loopback HTTPS server that remembers, per request, whether the TLS
// connection it came on resumed a session: with "Connection: close" every request has a
// connection of its own.
type resumeServer struct {
	*httptest.Server
	mu      sync.Mutex
	resumed []bool
}

// newResumeServer starts it with TLS up to maxVersion; h2 serves HTTP/2 and closes each
// connection after one answer (GOAWAY), so that HTTP/2 runs open a connection per request too.
func newResumeServer(t *testing.T, maxVersion uint16, h2 bool) *resumeServer {
	t.Helper()
	s := &resumeServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.resumed = append(s.resumed, r.TLS.DidResume)
		s.mu.Unlock()
		if h2 {
			// Go's HTTP/2 server answers this with a GOAWAY: the connection serves no more.
			w.Header().Set("Connection", "close")
		}
		io.WriteString(w, "hello")
	}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.EnableHTTP2 = h2
	s.TLS = &tls.Config{MaxVersion: maxVersion}
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// Over https, a run that opens a connection per request resumes the TLS session of the first
// handshake on every later connection, as a browser returning to a site does, instead of
// paying a full handshake each time: with TLS 1.3 tickets and TLS 1.2 session tickets, over
// HTTP/1.1 ("Connection: close") and HTTP/2 (a server that closes each connection).
func TestTLSSessionResumption(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		version uint16
		h2      bool
	}{
		{"TLS 1.3, HTTP/1.1", tls.VersionTLS13, false},
		{"TLS 1.2, HTTP/1.1", tls.VersionTLS12, false},
		{"TLS 1.3, HTTP/2", tls.VersionTLS13, true},
		{"TLS 1.2, HTTP/2", tls.VersionTLS12, true},
	}
	const reps = 6
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newResumeServer(t, tc.version, tc.h2)
			cfg := Config{Users: 1, Reps: reps, Insecure: true, ConnectionClose: !tc.h2, HTTP2: tc.h2}
			results, out := run(t, cfg, oneTarget(t, srv.URL+"/"))
			checkResults(t, results, reps, ErrNone)
			if out.Connections != reps {
				t.Errorf("%d connections, want one per request (%d)", out.Connections, reps)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if len(srv.resumed) != reps {
				t.Fatalf("server saw %d requests, want %d", len(srv.resumed), reps)
			}
			if srv.resumed[0] {
				t.Errorf("the first connection resumed a session it cannot have had")
			}
			for i, r := range srv.resumed[1:] {
				if !r {
					t.Errorf("connection %d made a full handshake, want a resumed session", i+2)
				}
			}
		})
	}
}

// BenchmarkSendTLSClose is BenchmarkSend over https with a new connection per request
// ("Connection: close"): the TLS handshake dominates, and session resumption is what a
// handshake costs after the first. Client and server share the process, so ns/op counts
// both ends' handshakes.
func BenchmarkSendTLSClose(b *testing.B) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(make([]byte, 100))
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	b.Cleanup(srv.Close)
	tg, err := urls.ParseLine(srv.URL+"/small", urls.Options{})
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Users: 1, Reps: 1, Timeout: 5 * time.Second, UserAgent: "bench", Insecure: true, ConnectionClose: true}
	l, err := New(cfg, []urls.Target{tg})
	if err != nil {
		b.Fatal(err)
	}
	l.start = time.Now()
	x := l.newExchange()
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := l.send(x, 0, 0); res.Status != 200 {
			b.Fatalf("result %+v", res)
		}
	}
}
