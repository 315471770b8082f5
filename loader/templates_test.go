package loader

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// Targets that share a template still reach the server exactly as written: method, path,
// query, body and content type, each on its own URL, in one run with every kind mixed.
func TestSharedTemplatesSendEachTargetAsWritten(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, nil)
	tests := []struct {
		name, line, key, path, body, contentType string
	}{
		{"get", "/a", "GET /a", "/a", "", ""},
		{"second get", "/b?q=1&r=%20", "GET /b?q=1&r=%20", "/b", "", ""},
		{"escaped slash", "/c%2Fd", "GET /c%2Fd", "/c/d", "", ""},
		{"dot segments", "/e/../f", "GET /e/../f", "/e/../f", "", ""},
		{"double slash", "/g//h", "GET /g//h", "/g//h", "", ""},
		{"post without body", "/i POST", "POST /i", "/i", "", "application/x-www-form-urlencoded"},
		{"post with body", "/j POST a=1", "POST /j", "/j", "a=1", "application/x-www-form-urlencoded"},
		{"put with its own type", "/k PUT -T application/json; {\"k\":1}", "PUT /k", "/k", `{"k":1}`, "application/json"},
		{"delete", "/l DELETE", "DELETE /l", "/l", "", ""},
		{"head", "/m HEAD", "HEAD /m", "/m", "", ""},
	}
	var targets []urls.Target
	for _, tc := range tests {
		tg, err := urls.ParseLine(srv.URL+tc.line, urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, tg)
	}
	results, _ := run(t, Config{Users: 1, Reps: 2 * len(targets), ContentType: "application/x-www-form-urlencoded"}, targets)
	for _, r := range results {
		if r.Err != ErrNone {
			t.Fatalf("a request failed: %v", r.Err)
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if n := srv.count(tc.key); n != 2 {
				t.Errorf("%q reached the server %d times, want 2 (hits: %v)", tc.key, n, srv.snapshot())
			}
			srv.mu.Lock()
			body, header := srv.bodies[tc.path], srv.headers[tc.path]
			srv.mu.Unlock()
			if body != tc.body || header.Get("Content-Type") != tc.contentType {
				t.Errorf("body %q with type %q, want %q with %q", body, header.Get("Content-Type"), tc.body, tc.contentType)
			}
		})
	}
}

// A long URL list costs little per line once the loader is built: GET targets share their
// template instead of holding a 1.3 KB fasthttp request each, and no parsed url.URL is kept.
func TestLoaderMemoryPerTarget(t *testing.T) {
	const n = 2 * keptURLs
	targets := make([]urls.Target, n)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1:1/p/%d", i), Source: "urls.txt:1"}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l, err := New(Config{Users: 1, Reps: 1, Timeout: time.Second}, targets)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perTarget := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	runtime.KeepAlive(l)
	if perTarget > 256 {
		t.Errorf("the loader holds %d bytes per target, want at most 256", perTarget)
	}
	t.Logf("%d bytes per target", perTarget)
}

// Beyond keptURLs the loader parses a target's URL at each visit: redirects still resolve
// against it and cookies still follow it.
func TestLongListVisitsResolveRedirectsAndCookies(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/p/") {
			http.SetCookie(w, &http.Cookie{Name: "k", Value: "v", Path: "/"})
			w.Header().Set("Location", "../r/"+strings.TrimPrefix(r.URL.Path, "/p/"))
			w.WriteHeader(http.StatusFound)
			return
		}
		if c, err := r.Cookie("k"); err != nil || c.Value != "v" {
			w.WriteHeader(http.StatusBadRequest)
		}
	})
	targets := pageTargets(t, srv.URL, keptURLs+1)
	const reps = 5
	results, _ := run(t, Config{Users: 1, Reps: reps, Cookies: true, FollowRedirects: true}, targets)
	redirected, landed := 0, 0
	for _, r := range results {
		switch {
		case r.Err != ErrNone:
			t.Fatalf("a request failed: %v", r.Err)
		case r.Kind == KindPage:
		case r.Status == http.StatusFound:
			redirected++
		case r.Status == http.StatusOK:
			landed++
		default:
			t.Errorf("status %d: the cookie did not follow the redirect", r.Status)
		}
	}
	if redirected != reps || landed != reps {
		t.Errorf("%d redirects and %d landings, want %d of each", redirected, landed, reps)
	}
	hits := srv.snapshot()
	for key, n := range hits {
		if strings.HasPrefix(key, "GET /r/") && n != 1 {
			t.Errorf("%s hit %d times, want 1", key, n)
		}
	}
}
