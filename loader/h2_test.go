package loader

import (
	"bytes"
	"compress/gzip"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/urls"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// newH2Server starts a loopback server that speaks HTTP/2 only, counting requests as
// hitServer does and each request's protocol under "proto HTTP/2.0" (say): over TLS, agreeing
// on h2 by ALPN, or in h2c with prior knowledge when h2c is set.
func newH2Server(t *testing.T, h2c bool, handle func(w http.ResponseWriter, r *http.Request)) *hitServer {
	t.Helper()
	s := &hitServer{hits: map[string]int{}, bodies: map[string]string{}, headers: map[string]http.Header{}}
	inner := s.handler(handle)
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits["proto "+r.Proto]++
		s.mu.Unlock()
		inner.ServeHTTP(w, r)
	}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	if h2c {
		s.Config.Protocols = new(http.Protocols)
		s.Config.Protocols.SetUnencryptedHTTP2(true)
		s.Start()
	} else {
		s.EnableHTTP2 = true
		s.StartTLS()
	}
	t.Cleanup(s.Close)
	return s
}

// onlyHTTP2 asserts that the server saw n requests, every one over HTTP/2.
func onlyHTTP2(t *testing.T, s *hitServer, n int) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, count := range s.hits {
		if strings.HasPrefix(key, "proto ") && key != "proto HTTP/2.0" {
			t.Errorf("server saw %d requests over %s", count, strings.TrimPrefix(key, "proto "))
		}
	}
	if got := s.hits["proto HTTP/2.0"]; got != n {
		t.Errorf("server saw %d HTTP/2 requests, want %d", got, n)
	}
}

// requests counts the results that are requests (not whole pages).
func requests(results []Result) int {
	n := 0
	for _, r := range results {
		if r.Kind != KindPage {
			n++
		}
	}
	return n
}

// Over TLS (verified, --insecure, --cacert) and h2c, directly and through the proxy, every
// request goes over HTTP/2 and the users share one connection.
func TestHTTP2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		h2c        bool
		insecure   bool
		cacert     bool // trust the server's own certificate
		proxy      bool
		want       ErrKind
		wantSample string
	}{
		{name: "https, insecure", insecure: true},
		{name: "https, cacert", cacert: true},
		{name: "https, verified by default", want: ErrTLS, wantSample: "certificate signed by unknown authority"},
		{name: "https through the proxy", insecure: true, proxy: true},
		{name: "h2c", h2c: true},
		{name: "h2c through the proxy", h2c: true, proxy: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newH2Server(t, tc.h2c, nil)
			cfg := Config{Users: 2, Reps: 3, HTTP2: true, Insecure: tc.insecure}
			if tc.cacert {
				cfg.CACert = writePEM(t, t.TempDir(), "ca.pem", "CERTIFICATE", srv.Certificate().Raw)
			}
			var p *connectProxy
			if tc.proxy {
				p = newConnectProxy(t, "")
				cfg.Proxy = p.url("")
			}
			results, out := run(t, cfg, oneTarget(t, srv.URL+"/"))
			checkResults(t, results, 6, tc.want)
			for _, r := range results {
				if r.HTTP10 {
					t.Fatalf("result %+v marked HTTP/1.0", r)
				}
			}
			if tc.want != ErrNone {
				onlyHTTP2(t, srv, 0)
				if s := out.ErrorSamples[tc.want]; !strings.Contains(s, tc.wantSample) {
					t.Errorf("sample %q, want it to mention %q", s, tc.wantSample)
				}
				return
			}
			if got := srv.count("GET /"); got != 6 {
				t.Errorf("server saw %d requests, want 6", got)
			}
			onlyHTTP2(t, srv, 6)
			// The users' streams share the one connection the client dialed.
			if out.Connections != 1 {
				t.Errorf("opened %d connections, want 1", out.Connections)
			}
			if tc.proxy && p.tunnels.Load() != 1 {
				t.Errorf("%d tunnels, want 1", p.tunnels.Load())
			}
			if out.WireBytesIn == 0 || out.WireBytesOut == 0 {
				t.Errorf("wire bytes in %d, out %d: not counted", out.WireBytesIn, out.WireBytesOut)
			}
		})
	}
}

// Pages, logins, cookies and redirects work over HTTP/2 as over HTTP/1.1 (see visit_test.go).
func TestHTTP2Browser(t *testing.T) {
	t.Parallel()
	for _, h2c := range []bool{false, true} {
		name := "tls"
		if h2c {
			name = "h2c"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			site := newH2Server(t, h2c, func(w http.ResponseWriter, r *http.Request) {
				scheme := "http"
				if r.TLS != nil {
					scheme = "https"
				}
				switch r.URL.Path {
				case "/page":
					w.Header().Set("Content-Type", "text/html")
					io.WriteString(w, `<html><img src="/a.png"><script src="b.js"></script></html>`)
				case "/login":
					http.SetCookie(w, &http.Cookie{Name: "sid", Value: "ann", Path: "/", HttpOnly: true})
					http.Redirect(w, r, "/welcome", http.StatusSeeOther)
				case "/account":
					if c, err := r.Cookie("sid"); err != nil || c.Value != "ann" {
						http.Error(w, "log in first", http.StatusForbidden)
						return
					}
					io.WriteString(w, "your orders")
				case "/r1":
					http.Redirect(w, r, "/r2", http.StatusFound)
				case "/r2":
					http.Redirect(w, r, scheme+"://"+r.Host+"/final", http.StatusMovedPermanently)
				default:
					io.WriteString(w, "ok")
				}
			})
			base := Config{HTTP2: true, Insecure: !h2c}
			sent := 0

			cfg := base
			cfg.Users, cfg.Reps, cfg.Parser = 2, 3, true
			results, _ := run(t, cfg, []urls.Target{target(t, site.URL+"/page")})
			sent += requests(results)
			if k := kinds(results); k[KindURL] != 6 || k[KindResource] != 4 || k[KindPage] != 6 {
				t.Errorf("page: results by kind %v, want 6 URL, 4 resource (2 per user), 6 page", k)
			}
			if site.count("GET /a.png") != 2 || site.count("GET /b.js") != 2 {
				t.Errorf("resources fetched %d and %d times, want once per user", site.count("GET /a.png"), site.count("GET /b.js"))
			}

			cfg = base
			cfg.Users, cfg.Reps, cfg.Cookies, cfg.FollowRedirects = 3, 4, true, true
			cfg.ContentType = "application/x-www-form-urlencoded"
			cfg.Login = []urls.Target{target(t, site.URL+"/login POST user=ann")}
			results, _ = run(t, cfg, []urls.Target{target(t, site.URL+"/account")})
			sent += requests(results)
			if got := site.count("POST /login"); got != 3 {
				t.Errorf("%d logins, want one per user (3)", got)
			}
			if k := kinds(results); k[KindLogin] != 6 || k[KindURL] != 12 || k[KindPage] != 12 {
				t.Errorf("login: results by kind %v", k)
			}
			for _, r := range results {
				if r.Kind == KindURL && r.Status != 200 {
					t.Fatalf("account answered %d, want 200: the session cookie was not sent back", r.Status)
				}
			}

			cfg = base
			cfg.Users, cfg.Reps, cfg.FollowRedirects = 1, 2, true
			results, _ = run(t, cfg, []urls.Target{target(t, site.URL+"/r1")})
			sent += requests(results)
			var statuses []uint16
			for _, r := range results {
				if r.Kind == KindURL {
					statuses = append(statuses, r.Status)
				}
			}
			if want := []uint16{302, 301, 200, 302, 301, 200}; !slices.Equal(statuses, want) {
				t.Errorf("redirect hops answered %v, want %v", statuses, want)
			}
			if got := site.count("GET /final"); got != 2 {
				t.Errorf("the chain's end was fetched %d times, want 2", got)
			}
			onlyHTTP2(t, site, sent)
		})
	}
}

// A compressed answer is counted as received and as decoded; the client neither asks for
// compression nor decodes it.
func TestHTTP2ContentEncoding(t *testing.T) {
	t.Parallel()
	page := []byte(strings.Repeat("<p>shop</p>", 2000))
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	_, _ = z.Write(page)
	_ = z.Close()
	encoded := buf.Bytes()
	site := newH2Server(t, false, func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			_, _ = w.Write(page)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(encoded)
	})
	tests := []struct {
		name                  string
		acceptEncoding        string
		wantBytes, wantDecode int
	}{
		{"gzip asked", "gzip, deflate, br", len(encoded), len(page)},
		{"nothing asked", "", len(page), len(page)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			results, _ := run(t, Config{Users: 1, Reps: 2, HTTP2: true, Insecure: true, AcceptEncoding: tc.acceptEncoding},
				oneTarget(t, site.URL+"/p"))
			checkResults(t, results, 2, ErrNone)
			for _, r := range results {
				if r.BodyBytes != int64(tc.wantBytes) || r.Decoded != int64(tc.wantDecode) {
					t.Fatalf("result %+v, want %d bytes received and %d decoded", r, tc.wantBytes, tc.wantDecode)
				}
			}
			site.mu.Lock()
			got := site.headers["/p"].Get("Accept-Encoding")
			site.mu.Unlock()
			if got != tc.acceptEncoding {
				t.Errorf("server saw Accept-Encoding %q, want %q", got, tc.acceptEncoding)
			}
		})
	}
}

// What a request carries reaches the server over HTTP/2 as written: method, path and query,
// body, headers, Host, User-Agent (or none), and the URL's credentials as basic authentication.
func TestHTTP2RequestContents(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var host string
	srv := newH2Server(t, true, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/host" {
			mu.Lock()
			host = r.Host
			mu.Unlock()
		}
		if r.URL.Path == "/private" {
			if u, p, ok := r.BasicAuth(); !ok || u != "ann" || p != "s3cret" {
				http.Error(w, "who are you", http.StatusUnauthorized)
				return
			}
		}
		io.WriteString(w, "ok")
	})
	for _, ua := range []string{"webload-test", ""} {
		t.Run("user agent "+ua, func(t *testing.T) {
			targets := []urls.Target{
				target(t, srv.URL+"/form POST a=1&b=2"),
				target(t, srv.URL+"/api PUT -T application/json; {\"x\":1}"),
				target(t, srv.URL+"/head HEAD"),
				target(t, strings.Replace(srv.URL, "http://", "http://ann:s3cret@", 1)+"/private"),
				target(t, srv.URL+"/a%2Fb/../c?q=1&r=%20"),
			}
			cfg := Config{Users: 1, Reps: len(targets), HTTP2: true, UserAgent: ua,
				ContentType: "application/x-www-form-urlencoded", Headers: []Header{{Name: "X-Run", Value: "r1"}}}
			results, _ := run(t, cfg, targets)
			checkResults(t, results, len(targets), ErrNone)
			srv.mu.Lock()
			defer srv.mu.Unlock()
			for _, key := range []string{"POST /form", "PUT /api", "HEAD /head", "GET /private", "GET /a%2Fb/../c?q=1&r=%20"} {
				if srv.hits[key] == 0 {
					t.Errorf("server never saw %q (it saw %v)", key, srv.hits)
				}
			}
			if srv.bodies["/form"] != "a=1&b=2" || srv.bodies["/api"] != `{"x":1}` {
				t.Errorf("bodies %q and %q", srv.bodies["/form"], srv.bodies["/api"])
			}
			if got := srv.headers["/api"].Get("Content-Type"); got != "application/json" {
				t.Errorf("content type %q", got)
			}
			h := srv.headers["/form"]
			if h.Get("X-Run") != "r1" || h.Get("User-Agent") != ua {
				t.Errorf("headers %v, want X-Run r1 and User-Agent %q", h, ua)
			}
		})
	}
	results, _ := run(t, Config{Users: 1, Reps: 1, HTTP2: true, Headers: []Header{{Name: "Host", Value: "shop.test"}}},
		oneTarget(t, srv.URL+"/host"))
	checkResults(t, results, 1, ErrNone)
	mu.Lock()
	defer mu.Unlock()
	if host != "shop.test" {
		t.Errorf("server saw host %q, want the Host header's shop.test", host)
	}
}

// Failures over HTTP/2 are of the kinds they are over HTTP/1.1, with a clear message when the
// server will not speak HTTP/2, and the timeout bounds headers and body alike.
func TestHTTP2Failures(t *testing.T) {
	t.Parallel()
	// stall answers nothing, or the start of a body, until the client gives up.
	stall := func(head bool) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			if head {
				io.WriteString(w, "the start")
				w.(http.Flusher).Flush()
			}
			select {
			case <-r.Context().Done():
			case <-time.After(30 * time.Second): // a hang guard, far past every case's timeout
			}
		}
	}
	http1Only := func(t *testing.T, tc *tls.Config) string {
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			t.Errorf("server saw a request over %s", r.Proto)
		}))
		srv.Config.ErrorLog = log.New(io.Discard, "", 0)
		srv.TLS = tc
		srv.StartTLS()
		t.Cleanup(srv.Close)
		return srv.URL + "/"
	}
	// A failure of its own (refused, TLS) must not be taken over by the timeout on a loaded
	// machine, hence a long one; headers that never come time out whatever the timeout.
	const long, short = 10 * time.Second, 300 * time.Millisecond
	// A body that stalls after its headers must time out after they came, with their status,
	// so its timeout outlasts a dial, a TLS handshake and the headers on a loaded machine many
	// times over. The test waits it out once: its requests go out together.
	const afterHeaders = 3 * time.Second
	tests := []struct {
		name       string
		url        func(t *testing.T) string
		timeout    time.Duration
		want       ErrKind
		wantStatus uint16
		wantSample string
	}{
		{"refused", func(t *testing.T) string { return "http://" + closedPort(t) + "/" }, long, ErrRefused, 0, "refused"},
		{"headers too late", func(t *testing.T) string { return newH2Server(t, false, stall(false)).URL + "/" }, short, ErrTimeout, 0, "timeout"},
		{"body too late", func(t *testing.T) string { return newH2Server(t, false, stall(true)).URL + "/" }, afterHeaders, ErrTimeout, 200, "timeout"},
		{"h2c body too late", func(t *testing.T) string { return newH2Server(t, true, stall(true)).URL + "/" }, afterHeaders, ErrTimeout, 200, "timeout"},
		{"server speaks HTTP/1.1 only", func(t *testing.T) string { return http1Only(t, nil) }, long, ErrTLS, 0, "did not agree to HTTP/2 (ALPN)"},
		{"server picks no protocol", func(t *testing.T) string { return http1Only(t, &tls.Config{NextProtos: []string{}}) }, long, ErrTLS, 0, "did not agree to HTTP/2 (ALPN)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Four users of one request each, in flight together: a user's second request
			// would wait out the timeout again.
			cfg := Config{Users: 4, Reps: 1, HTTP2: true, Insecure: true, Timeout: tc.timeout}
			results, out := run(t, cfg, oneTarget(t, tc.url(t)))
			if len(results) != 4 {
				t.Fatalf("%d results, want 4", len(results))
			}
			for _, r := range results {
				if r.Err != tc.want || r.Status != tc.wantStatus {
					t.Fatalf("result %+v, want kind %v and status %d", r, tc.want, tc.wantStatus)
				}
			}
			if s := out.ErrorSamples[tc.want]; !strings.Contains(s, tc.wantSample) {
				t.Errorf("sample %q, want it to mention %q", s, tc.wantSample)
			}
		})
	}
}

// -g and -p over HTTP/2 show the heads as sent and received.
func TestHTTP2Probe(t *testing.T) {
	t.Parallel()
	srv := newH2Server(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s3ss10n"})
		io.WriteString(w, "the body")
	})
	p, err := ProbeOnce(Config{HTTP2: true, Insecure: true, Timeout: 5 * time.Second, UserAgent: "probe"}, oneTarget(t, srv.URL+"/x")[0])
	if err != nil {
		t.Fatal(err)
	}
	host := hostOf(t, srv.URL)
	if !strings.HasPrefix(p.Request, "GET /x HTTP/2.0\n") || !strings.Contains(p.Request, "Host: "+host) ||
		!strings.Contains(p.Request, "User-Agent: probe") {
		t.Errorf("request head:\n%s", p.Request)
	}
	if !strings.HasPrefix(p.Response, "HTTP/2.0 200\n") || !strings.Contains(p.Response, "Set-Cookie: ***") ||
		strings.Contains(p.Response, "s3ss10n") || strings.Contains(p.Response, "Transfer-Encoding") {
		t.Errorf("response head:\n%s", p.Response)
	}
	if string(p.Body) != "the body" {
		t.Errorf("body %q", p.Body)
	}
	onlyHTTP2(t, srv, 1)
}

// When the server's stream limit fills the one shared connection, the next user's request
// goes over a second connection instead of waiting for the first to free a stream: each
// request is held until both are in flight, which only two connections allow.
func TestHTTP2StreamLimitOpensAnotherConnection(t *testing.T) {
	t.Parallel()
	var inFlight atomic.Int64
	both := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if inFlight.Add(1) == 2 {
			close(both)
		}
		select {
		case <-both:
			io.WriteString(w, "ok")
		case <-time.After(30 * time.Second): // a hang guard: the requests never overlapped
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Config.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: 1}
	srv.Start()
	t.Cleanup(srv.Close)

	// Each request waits for the other, which a loaded machine may take long to send.
	results, out := run(t, Config{Users: 2, Reps: 1, HTTP2: true, Timeout: 40 * time.Second}, oneTarget(t, srv.URL+"/"))
	checkResults(t, results, 2, ErrNone)
	for _, r := range results {
		if r.Status != http.StatusOK {
			t.Errorf("result %+v, want status 200", r)
		}
	}
	if out.Connections != 2 {
		t.Errorf("opened %d connections, want 2", out.Connections)
	}
}

// A request the server refused before processing it (RST_STREAM with REFUSED_STREAM, or a
// GOAWAY whose last stream comes before it) is sent again, on a new connection after a GOAWAY,
// and succeeds within the timeout.
func TestHTTP2RefusedStreamRetried(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		refuse    func(fr *http2.Framer, streamID uint32) error
		wantConns int64
	}{
		{"REFUSED_STREAM", func(fr *http2.Framer, id uint32) error {
			return fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
		}, 1},
		{"GOAWAY before the stream", func(fr *http2.Framer, id uint32) error {
			// The refused stream is the connection's first, so none was processed.
			if err := fr.WriteGoAway(0, http2.ErrCodeNo, nil); err != nil {
				return err
			}
			return errors.New("connection ends") // closes it
		}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := &rawH2Server{refuse: tc.refuse}
			addr := srv.start(t)
			results, out := run(t, Config{Users: 1, Reps: 2, HTTP2: true}, oneTarget(t, "http://"+addr+"/"))
			checkResults(t, results, 2, ErrNone)
			for _, r := range results {
				if r.Status != http.StatusOK {
					t.Errorf("result %+v, want status 200", r)
				}
			}
			if got := srv.refused.Load(); got != 1 {
				t.Errorf("server refused %d streams, want 1", got)
			}
			if got := srv.answered.Load(); got != 2 {
				t.Errorf("server answered %d requests, want 2", got)
			}
			if out.Connections != tc.wantConns {
				t.Errorf("opened %d connections, want %d", out.Connections, tc.wantConns)
			}
			// One of the two counters has the refusal, and the request went out once more.
			if out.H2Resets+out.H2GoAways != 1 || out.H2Retries != 1 {
				t.Errorf("%d RST_STREAM, %d GOAWAY, %d retried; want one refusal and one retry", out.H2Resets, out.H2GoAways, out.H2Retries)
			}
		})
	}
}

// An HTTP/2 server that refuses a request every time it is sent (RST_STREAM REFUSED_STREAM)
// fails it as refused, as a refused connection, not as a timeout: the client sends it again
// with a growing back-off, which the timeout ends, but the server never took it.
func TestHTTP2RefusedStreamEveryTime(t *testing.T) {
	t.Parallel()
	srv := &rawH2Server{refuseAll: true, refuse: func(fr *http2.Framer, id uint32) error {
		return fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
	}}
	addr := srv.start(t)
	// Long enough for the client's second attempt, which follows the first at once, on a
	// loaded machine; the third waits out a back-off of 1 s.
	cfg := Config{Users: 1, Reps: 1, HTTP2: true, Timeout: 1500 * time.Millisecond}
	results, out := run(t, cfg, oneTarget(t, "http://"+addr+"/"))
	checkResults(t, results, 1, ErrRefused)
	if r := results[0]; r.Status != 0 {
		t.Errorf("result %+v, want no status", r)
	}
	if got := srv.refused.Load(); got < 2 {
		t.Errorf("server refused %d streams, want 2 or more (the request was sent again)", got)
	}
	if got := srv.answered.Load(); got != 0 {
		t.Errorf("server answered %d requests, want none", got)
	}
	if s := out.ErrorSamples[ErrRefused]; !strings.Contains(s, "REFUSED_STREAM") {
		t.Errorf("sample %q, want it to name REFUSED_STREAM", s)
	}
}

// rawH2Server plays an HTTP/2 server (h2c, prior knowledge) that writes its own frames: it
// refuses the first request it sees with refuse, when set (every request with refuseAll; the
// connection ends when refuse fails), and answers every other one with interim informational
// heads (100 and 103 in turn), then fields, whatever they say (":status" first; 200 and a
// length of 2 when nil), and the body "ok".
type rawH2Server struct {
	refuse    func(fr *http2.Framer, streamID uint32) error
	refuseAll bool
	interim   int
	fields    []hpack.HeaderField
	refused   atomic.Int64
	answered  atomic.Int64
}

// start listens on loopback and serves until the test ends; it returns the address.
func (s *rawH2Server) start(t *testing.T) string {
	t.Helper()
	return serveLoopback(t, s.serve)
}

func (s *rawH2Server) serve(c net.Conn) {
	defer c.Close()
	fr := h2cFramer(c)
	if fr == nil {
		return
	}
	var head bytes.Buffer
	enc := hpack.NewEncoder(&head)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				if err := fr.WriteSettingsAck(); err != nil {
					return
				}
			}
		case *http2.HeadersFrame:
			if s.refuse != nil && (s.refused.CompareAndSwap(0, 1) || s.refuseAll && s.refused.Add(1) > 0) {
				if err := s.refuse(fr, f.StreamID); err != nil {
					return
				}
				continue
			}
			s.answered.Add(1)
			for i := range s.interim {
				head.Reset()
				_ = enc.WriteField(hpack.HeaderField{Name: ":status", Value: []string{"100", "103"}[i%2]})
				if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: f.StreamID, BlockFragment: head.Bytes(), EndHeaders: true}); err != nil {
					return
				}
			}
			head.Reset()
			fields := s.fields
			if fields == nil {
				fields = []hpack.HeaderField{{Name: ":status", Value: "200"}, {Name: "content-length", Value: "2"}}
			}
			for _, hf := range fields {
				_ = enc.WriteField(hpack.HeaderField{Name: strings.ToLower(hf.Name), Value: hf.Value})
			}
			if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: f.StreamID, BlockFragment: head.Bytes(), EndHeaders: true}); err != nil {
				return
			}
			if err := fr.WriteData(f.StreamID, true, []byte("ok")); err != nil {
				return
			}
		}
	}
}

// h2cFramer opens the server's side of an h2c connection with prior knowledge, for test
// servers that write their own frames: it reads the client's preface and sends the server's
// settings, within 10 s for the whole connection. It returns nil when the client went away.
func h2cFramer(c net.Conn) *http2.Framer {
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(c, preface); err != nil {
		return nil
	}
	fr := http2.NewFramer(c, c)
	if err := fr.WriteSettings(); err != nil {
		return nil
	}
	return fr
}

// A request over HTTP/2 costs the client a bounded number of allocations, end to end (send,
// answer, body), against a server in another process whose allocations are not counted.
func TestHTTP2SendAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	l := benchLoaderFor(t, h2cChildServer(t), true)
	x := l.newExchange()
	defer x.release()
	allocs := testing.AllocsPerRun(200, func() {
		if res, _ := l.send(x, 0, 0); res.Status != 200 || res.Err != ErrNone {
			t.Fatalf("result %+v", res)
		}
	})
	const pinned = 6 // 2 on loopback; room for the decoder's strings of new header values
	t.Logf("%.1f allocations per request", allocs)
	if allocs > pinned {
		t.Errorf("%.1f allocations per request, pinned at %d", allocs, pinned)
	}
}
