package loader

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/webload/webload/urls"
)

// wireRecorder is a loopback HTTP/1.1 server that keeps every request as it came on the wire,
// head and body, and answers each with a 200; the answer to request setCookieAt (from 0, over
// all connections) sets a cookie.
type wireRecorder struct {
	mu   sync.Mutex
	reqs [][]byte
}

func newWireRecorder(t *testing.T, setCookieAt int) (*wireRecorder, string) {
	t.Helper()
	w := &wireRecorder{}
	addr := serveLoopback(t, func(conn net.Conn) {
		defer conn.Close()
		br := bufio.NewReader(conn)
		for {
			var raw bytes.Buffer
			req, err := http.ReadRequest(bufio.NewReader(io.TeeReader(br, &raw)))
			if err != nil {
				return
			}
			if _, err := io.Copy(io.Discard, req.Body); err != nil {
				return
			}
			w.mu.Lock()
			n := len(w.reqs)
			w.reqs = append(w.reqs, raw.Bytes())
			w.mu.Unlock()
			extra := ""
			if n == setCookieAt {
				extra = "Set-Cookie: seen=yes; Path=/\r\n"
			}
			if _, err := fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\n%sContent-Length: 2\r\n\r\nok", extra); err != nil {
				return
			}
		}
	})
	return w, addr
}

// repeatedCase is a URL a user sends again and again, with the browser's options or without.
type repeatedCase struct {
	name    string
	browser bool
	line    string
}

var repeatedCases = []repeatedCase{
	{"plain GET", false, "/a"},
	{"browser GET", true, "/a"},
	{"plain POST", false, "/post POST name=x&v=1"},
	{"browser POST", true, "/post POST name=x&v=1"},
}

// TestRepeatedRequestsOnTheWire: a user sending the same URL again sends it byte for byte as
// the first time (its request is reused, not prepared again; see keepPrepared), and a cookie
// the server sets, a request body, headers and a change of URL all still go out as they should.
func TestRepeatedRequestsOnTheWire(t *testing.T) {
	for _, tc := range repeatedCases {
		t.Run(tc.name, func(t *testing.T) {
			// The first answer sets a cookie in the browser runs; the first two requests go
			// out before the jar holds it, the others with it.
			w, addr := newWireRecorder(t, 1)
			tg, err := urls.ParseLine("http://"+addr+tc.line, urls.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Users: 1, Reps: 5, UserAgent: "ua-test", Headers: []Header{{Name: "X-Run", Value: "r1"}}}
			if tc.browser {
				cfg.Cookies, cfg.Parser, cfg.FollowRedirects = true, true, true
			}
			_, out := run(t, cfg, []urls.Target{tg})
			if out.Stop != Completed {
				t.Fatalf("stop %v", out.Stop)
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if len(w.reqs) != 5 {
				t.Fatalf("%d requests on the wire, want 5", len(w.reqs))
			}
			for i, r := range w.reqs {
				if !bytes.Contains(r, []byte("\r\nX-Run: r1\r\n")) || !bytes.Contains(r, []byte("\r\nUser-Agent: ua-test\r\n")) {
					t.Errorf("request %d lacks the run's headers:\n%s", i, r)
				}
				if body := "name=x&v=1"; len(tc.line) > 3 && tc.line[:5] == "/post" &&
					(!bytes.HasSuffix(r, []byte(body)) || !bytes.Contains(r, []byte("Content-Length: "+strconv.Itoa(len(body))))) {
					t.Errorf("request %d lacks its body:\n%s", i, r)
				}
			}
			first, cookied := 1, 2 // the requests that must equal requests 0 and 2
			if !tc.browser {
				cookied = 0
			}
			if !bytes.Equal(w.reqs[first], w.reqs[0]) {
				t.Errorf("request 1 differs from request 0:\n%s\n---\n%s", w.reqs[1], w.reqs[0])
			}
			for i := 3; i < 5; i++ {
				if !bytes.Equal(w.reqs[i], w.reqs[cookied]) {
					t.Errorf("request %d differs from request %d:\n%s\n---\n%s", i, cookied, w.reqs[i], w.reqs[cookied])
				}
			}
			hasCookie := bytes.Contains(w.reqs[2], []byte("\r\nCookie: seen=yes\r\n"))
			if hasCookie != tc.browser {
				t.Errorf("request 2 carries the cookie: %v, want %v:\n%s", hasCookie, tc.browser, w.reqs[2])
			}
		})
	}
}

// TestRepeatedRequestsAlternatingURLs: a user switching between two URLs sends each with its
// own request line, however often it returns to one.
func TestRepeatedRequestsAlternatingURLs(t *testing.T) {
	w, addr := newWireRecorder(t, -1)
	var targets []urls.Target
	for _, p := range []string{"/one", "/two"} {
		tg, err := urls.ParseLine("http://"+addr+p, urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, tg)
	}
	for _, browser := range []bool{false, true} {
		w.mu.Lock()
		w.reqs = nil
		w.mu.Unlock()
		cfg := Config{Users: 1, Reps: 40, Cookies: browser, Parser: browser, FollowRedirects: browser}
		results, out := run(t, cfg, targets)
		if out.Stop != Completed {
			t.Fatalf("stop %v", out.Stop)
		}
		w.mu.Lock()
		var urlResults []Result
		for _, r := range results {
			if r.Kind == KindURL {
				urlResults = append(urlResults, r)
			}
		}
		if len(w.reqs) != 40 || len(urlResults) != 40 {
			t.Fatalf("browser %v: %d requests on the wire, %d results, want 40", browser, len(w.reqs), len(urlResults))
		}
		// One user's requests reach the server in the order its results are made.
		switched := 0
		for i, r := range w.reqs {
			want := []string{"GET /one ", "GET /two "}[urlResults[i].Target]
			if !bytes.HasPrefix(r, []byte(want)) {
				t.Errorf("browser %v: request %d is not %q:\n%s", browser, i, want, r)
			}
			if i > 0 && urlResults[i].Target != urlResults[i-1].Target {
				switched++
			}
		}
		w.mu.Unlock()
		if switched == 0 {
			t.Errorf("browser %v: the user never switched URL in 40 requests", browser)
		}
	}
}

// TestRepeatedRequestsOverHTTP2 is TestRepeatedRequestsOnTheWire over HTTP/2: the request a
// user sends again is the one prepared for HTTP/2 the first time, and it reaches the server
// as the first did, with the run's headers, its body, the URL's credentials and, once the
// server set one, the cookie.
func TestRepeatedRequestsOverHTTP2(t *testing.T) {
	for _, tc := range append(repeatedCases, repeatedCase{"credentials", false, "/private"}) {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var reqs []string
			srv := newH2Server(t, true, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				var b strings.Builder
				fmt.Fprintf(&b, "%s %s %s host=%s\n", r.Method, r.URL.RequestURI(), r.Proto, r.Host)
				for _, k := range slices.Sorted(maps.Keys(r.Header)) {
					fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(r.Header[k], ", "))
				}
				b.Write(body)
				mu.Lock()
				n := len(reqs)
				reqs = append(reqs, b.String())
				mu.Unlock()
				if n == 1 {
					w.Header().Set("Set-Cookie", "seen=yes; Path=/")
				}
				io.WriteString(w, "ok")
			})
			base := srv.URL
			if tc.line == "/private" {
				base = strings.Replace(base, "http://", "http://ann:s3cret@", 1)
			}
			tg, err := urls.ParseLine(base+tc.line, urls.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Users: 1, Reps: 5, HTTP2: true, UserAgent: "ua-test", Headers: []Header{{Name: "X-Run", Value: "r1"}}}
			if tc.browser {
				cfg.Cookies, cfg.Parser, cfg.FollowRedirects = true, true, true
			}
			results, out := run(t, cfg, []urls.Target{tg})
			for _, r := range results {
				if r.Err != ErrNone || r.Status != 200 {
					t.Errorf("result %+v", r)
				}
			}
			if out.Stop != Completed {
				t.Fatalf("stop %v", out.Stop)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(reqs) != 5 {
				t.Fatalf("%d requests, want 5", len(reqs))
			}
			for i, r := range reqs {
				if !strings.Contains(r, "\nX-Run: r1\n") || !strings.Contains(r, "\nUser-Agent: ua-test\n") || !strings.Contains(r, " HTTP/2.0 ") {
					t.Errorf("request %d lacks the run's headers:\n%s", i, r)
				}
				if strings.HasPrefix(tc.line, "/post") && !strings.HasSuffix(r, "\nname=x&v=1") {
					t.Errorf("request %d lacks its body:\n%s", i, r)
				}
				if tc.line == "/private" && !strings.Contains(r, "\nAuthorization: Basic YW5uOnMzY3JldA==\n") {
					t.Errorf("request %d lacks the URL's credentials:\n%s", i, r)
				}
			}
			first, cookied := 1, 2 // the requests that must equal requests 0 and 2
			if !tc.browser {
				cookied = 0
			}
			if reqs[first] != reqs[0] {
				t.Errorf("request 1 differs from request 0:\n%s\n---\n%s", reqs[1], reqs[0])
			}
			for i := 3; i < 5; i++ {
				if reqs[i] != reqs[cookied] {
					t.Errorf("request %d differs from request %d:\n%s\n---\n%s", i, cookied, reqs[i], reqs[cookied])
				}
			}
			if hasCookie := strings.Contains(reqs[2], "\nCookie: seen=yes\n"); hasCookie != tc.browser {
				t.Errorf("request 2 carries the cookie: %v, want %v:\n%s", hasCookie, tc.browser, reqs[2])
			}
		})
	}
}
