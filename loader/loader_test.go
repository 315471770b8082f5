package loader

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

func TestClosedModelCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		users      int
		reps       int
		once       bool
		urls       int
		wantTotal  int
		wantPerURL int // every URL hit exactly this often
	}{
		{name: "siege's -c 20 -r 50 over 50 URLs", users: 20, reps: 50, urls: 50, wantTotal: 1000, wantPerURL: 20},
		{name: "one user, one rep", users: 1, reps: 1, urls: 3, wantTotal: 1},
		{name: "-r once splits the list", users: 7, once: true, urls: 50, wantTotal: 50, wantPerURL: 1},
		{name: "-r once with more users than URLs", users: 9, once: true, urls: 4, wantTotal: 4, wantPerURL: 1},
		{name: "more users than URLs", users: 10, reps: 4, urls: 4, wantTotal: 40, wantPerURL: 10},
		// Long lists share templates: each URL must still get its own requests.
		{name: "-r once over a long list", users: 8, once: true, urls: 10_000, wantTotal: 10_000, wantPerURL: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newHitServer(t, nil)
			targets := pageTargets(t, srv.URL, tc.urls)
			results, out := run(t, Config{Users: tc.users, Reps: tc.reps, Once: tc.once}, targets)
			if len(results) != tc.wantTotal {
				t.Fatalf("got %d results, want %d", len(results), tc.wantTotal)
			}
			if out.Stop != Completed {
				t.Errorf("stop = %v, want completed", out.Stop)
			}
			total := 0
			for i := range targets {
				n := srv.count("GET /p/" + itoa(i))
				total += n
				if tc.wantPerURL > 0 && n != tc.wantPerURL {
					t.Errorf("/p/%d hit %d times, want %d", i, n, tc.wantPerURL)
				}
			}
			if total != tc.wantTotal {
				t.Errorf("server saw %d requests, want %d", total, tc.wantTotal)
			}
			for _, r := range results {
				if r.Err != ErrNone || r.Status != 200 || r.BodyBytes == 0 {
					t.Fatalf("unexpected result %+v", r)
				}
			}
		})
	}
}

// With -r equal to the list length, siege's promise is that every user fetches every URL once.
func TestEveryUserWalksTheWholeList(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, nil)
	targets := pageTargets(t, srv.URL, 50)
	results, _ := run(t, Config{Users: 20, Reps: 50}, targets)
	seen := map[[2]int32]int{}
	for _, r := range results {
		seen[[2]int32{r.User, r.Target}]++
	}
	for u := range int32(20) {
		for tg := range int32(50) {
			if n := seen[[2]int32{u, tg}]; n != 1 {
				t.Fatalf("user %d fetched target %d %d times, want 1", u, tg, n)
			}
		}
	}
}

func TestRandomPicksAreSeeded(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, nil)
	targets := pageTargets(t, srv.URL, 10)
	sequence := func(seed uint64) string {
		results, _ := run(t, Config{Users: 1, Reps: 30, Random: true, Seed: seed}, targets)
		var b strings.Builder
		for _, r := range results {
			b.WriteString(itoa(int(r.Target)) + ",")
		}
		return b.String()
	}
	a, b, c := sequence(7), sequence(7), sequence(8)
	if a != b {
		t.Errorf("same seed, different picks:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("different seeds, same picks: %s", a)
	}
}

func TestRequestContents(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, nil)
	line := func(s string) urls.Target {
		tg, err := urls.ParseLine(s, urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	targets := []urls.Target{
		line(srv.URL + "/form POST a=1&b=2"),
		line(srv.URL + "/api PUT -T application/json; {\"x\":1}"),
		line(srv.URL + "/item DELETE"),
		line(srv.URL + "/head HEAD"), // the answer has a Content-Length but no body
	}
	cfg := Config{Users: 1, Reps: 4, UserAgent: "webload-test", ContentType: "application/x-www-form-urlencoded",
		Headers: []Header{{Name: "X-Run", Value: "r1"}, {Name: "Accept", Value: "text/html"}}}
	results, _ := run(t, cfg, targets)
	for _, r := range results {
		if r.Status != 200 {
			t.Errorf("result %+v, want 200", r)
		}
	}
	for _, key := range []string{"POST /form", "PUT /api", "DELETE /item", "HEAD /head"} {
		if n := srv.count(key); n != 1 {
			t.Errorf("%s: %d requests, want 1", key, n)
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	checks := []struct{ path, body, ctype string }{
		{"/form", "a=1&b=2", "application/x-www-form-urlencoded"},
		{"/api", `{"x":1}`, "application/json"},
	}
	for _, c := range checks {
		if got := srv.bodies[c.path]; got != c.body {
			t.Errorf("%s body = %q, want %q", c.path, got, c.body)
		}
		if got := srv.headers[c.path].Get("Content-Type"); got != c.ctype {
			t.Errorf("%s content type = %q, want %q", c.path, got, c.ctype)
		}
	}
	h := srv.headers["/item"]
	if h.Get("User-Agent") != "webload-test" || h.Get("X-Run") != "r1" || h.Get("Accept") != "text/html" {
		t.Errorf("headers = %v", h)
	}
}

func TestFailuresByKind(t *testing.T) {
	t.Parallel()
	refused := closedPort(t)
	tests := []struct {
		name       string
		handle     func(w http.ResponseWriter, r *http.Request)
		url        string
		timeout    time.Duration
		wantKind   ErrKind
		wantStatus uint16
		wantFailed bool
	}{
		{name: "500 is a failed response", handle: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) },
			wantStatus: 500, wantFailed: true},
		{name: "408 is a failed response", handle: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(408) },
			wantStatus: 408, wantFailed: true},
		{name: "404 is a transaction", handle: func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			wantStatus: 404},
		{name: "refused", url: "http://" + refused + "/", wantKind: ErrRefused, wantFailed: true},
		{name: "timeout", timeout: 100 * time.Millisecond, wantKind: ErrTimeout, wantFailed: true,
			handle: func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-time.After(30 * time.Second):
				case <-r.Context().Done():
				}
			}},
		{name: "reset before the response", wantKind: ErrClosed, wantFailed: true, handle: resetConnection},
		{name: "reset in the body", wantKind: ErrReset, wantStatus: 200, wantFailed: true, handle: func(w http.ResponseWriter, r *http.Request) {
			conn, buf, _ := w.(http.Hijacker).Hijack()
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\npartial")
			buf.Flush()
			time.Sleep(20 * time.Millisecond)
			resetConn(conn)
		}},
		{name: "garbage", wantKind: ErrBadResponse, wantFailed: true, handle: func(w http.ResponseWriter, _ *http.Request) {
			conn, buf, _ := w.(http.Hijacker).Hijack()
			buf.WriteString("NOT HTTP AT ALL\r\n\r\n")
			buf.Flush()
			conn.Close()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := tc.url
			if url == "" {
				url = newHitServer(t, tc.handle).URL + "/x"
			}
			tg, err := urls.ParseLine(url, urls.Options{})
			if err != nil {
				t.Fatal(err)
			}
			results, _ := run(t, Config{Users: 2, Reps: 3, Timeout: tc.timeout}, []urls.Target{tg})
			if len(results) != 6 {
				t.Fatalf("got %d results, want 6", len(results))
			}
			for _, r := range results {
				if r.Err != tc.wantKind || r.Status != tc.wantStatus || r.Failed() != tc.wantFailed {
					t.Fatalf("result %+v: want kind %v, status %d, failed %v", r, tc.wantKind, tc.wantStatus, tc.wantFailed)
				}
				// Never before the timeout; the generous upper bound only tells a timeout from
				// the server's 30 s hold, whatever the machine's load.
				if tc.wantKind == ErrTimeout && (r.Latency < tc.timeout || r.Latency > tc.timeout+10*time.Second) {
					t.Errorf("timed out after %v, want %v", r.Latency, tc.timeout)
				}
			}
		})
	}
}

func TestTimeLimitStopsTheRun(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(20 * time.Millisecond)
	})
	_, out := run(t, Config{Users: 4, Duration: 300 * time.Millisecond}, pageTargets(t, srv.URL, 5))
	if out.Stop != TimeUp {
		t.Fatalf("stop = %v, want time", out.Stop)
	}
	// The last requests may finish after the limit, so only the lower bound is a fact; so is
	// none of the results, on a machine too busy to send a request in the time.
	if out.Elapsed < 300*time.Millisecond {
		t.Errorf("elapsed %v, shorter than the 300 ms limit", out.Elapsed)
	}
}

func TestInterruptCountsRequestsInFlight(t *testing.T) {
	t.Parallel()
	const users = 3
	arrived := make(chan struct{}, users) // a request reached the server
	release := make(chan struct{})        // the server may answer
	srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
		select {
		case arrived <- struct{}{}:
		default: // a request past the users' first: the count of results tells
		}
		<-release
	})
	// The timeout is a hang guard: the requests are held until the run has stopped.
	l, err := New(Config{Users: users, Timeout: 30 * time.Second}, pageTargets(t, srv.URL, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer close(release)                  // whatever happens, so that Run returns
		guard := time.After(30 * time.Second) // a hang guard: the results then say what went wrong
	wait:
		for range users {
			select {
			case <-arrived:
			case <-guard:
				break wait
			}
		}
		cancel()
		// The answers come only once the loader has stopped, so they come after the stop.
		select {
		case <-l.stopCh:
		case <-guard:
		}
	}()
	var c collect
	out := l.Run(ctx, &c)
	if out.Stop != Interrupted {
		t.Fatalf("stop = %v, want interrupted", out.Stop)
	}
	if len(c.results) != 3 {
		t.Fatalf("got %d results, want the 3 in flight", len(c.results))
	}
	for _, r := range c.results {
		if !r.AfterStop || r.Status != 200 {
			t.Errorf("result %+v: want a 200 marked AfterStop", r)
		}
	}
}

// A run whose context has already ended stops at once, as interrupted: its watcher may stop it
// before Run has taken its start time, which the race detector caught.
func TestRunAlreadyInterrupted(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, nil)
	l, err := New(Config{Users: 2, Reps: 5, Timeout: 10 * time.Second}, pageTargets(t, srv.URL, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var c collect
	if out := l.Run(ctx, &c); out.Stop != Interrupted {
		t.Fatalf("stop = %v, want interrupted", out.Stop)
	}
}

func TestConnections(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		close              bool
		minConns, maxConns int64
	}{
		// Users share one pool: at most one connection each, fewer when one user's idle
		// connection serves another that started later.
		{name: "keep-alive reuses connections", minConns: 1, maxConns: 3},
		{name: "connection close opens one per request", close: true, minConns: 30, maxConns: 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newHitServer(t, nil)
			_, out := run(t, Config{Users: 3, Reps: 10, ConnectionClose: tc.close}, pageTargets(t, srv.URL, 2))
			if out.Connections < tc.minConns || out.Connections > tc.maxConns {
				t.Errorf("opened %d connections, want %d..%d", out.Connections, tc.minConns, tc.maxConns)
			}
			if out.WireBytesIn == 0 || out.WireBytesOut == 0 {
				t.Errorf("wire bytes in %d out %d, want both counted", out.WireBytesIn, out.WireBytesOut)
			}
		})
	}
}

func TestIPv6Loopback(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skip("no IPv6 loopback here:", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	tg, err := urls.ParseLine("http://"+ln.Addr().String()+"/", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	results, _ := run(t, Config{Users: 1, Reps: 2}, []urls.Target{tg})
	for _, r := range results {
		if r.Status != 200 {
			t.Fatalf("result %+v, want 200", r)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"no users", Config{Users: 0, Timeout: time.Second}, ErrNoUsers},
		{"negative reps", Config{Users: 1, Reps: -1, Timeout: time.Second}, ErrNegativeReps},
		{"once with reps", Config{Users: 1, Reps: 2, Once: true, Timeout: time.Second}, ErrOnceWithReps},
		{"no timeout", Config{Users: 1}, ErrBadTimeout},
		{"negative delay", Config{Users: 1, Timeout: time.Second, Delay: -1}, ErrNegativeDelay},
		{"http2 with connection close", Config{Users: 1, Timeout: time.Second, HTTP2: true, ConnectionClose: true}, ErrHTTP2Close},
		{"http2", Config{Users: 1, Timeout: time.Second, HTTP2: true}, nil},
		{"fine", Config{Users: 1, Timeout: time.Second}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := tc.cfg.Validate(); !errors.Is(err, tc.want) {
				t.Errorf("Validate() = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestCheckHosts(t *testing.T) {
	t.Parallel()
	lookups := 0
	lookup := func(_ context.Context, host string) ([]string, error) {
		lookups++
		if host == "known.test" {
			return []string{"127.0.0.1"}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	target := func(u, src string) urls.Target { return urls.Target{Method: "GET", URL: u, Source: src} }
	ok := []urls.Target{target("http://known.test/a", "u:1"), target("http://known.test/b", "u:2"), target("http://127.0.0.1/", "u:3")}
	if err := CheckHosts(context.Background(), ok, lookup); err != nil {
		t.Fatal(err)
	}
	if lookups != 1 {
		t.Errorf("%d lookups, want 1 (each host once, none for IPs)", lookups)
	}
	bad := append(ok, target("http://nowhere.test/", "u:4"))
	err := CheckHosts(context.Background(), bad, lookup)
	if err == nil || !strings.HasPrefix(err.Error(), `u:4: cannot resolve host "nowhere.test"`) {
		t.Errorf("err = %v", err)
	}
}
