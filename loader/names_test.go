package loader

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// With NameRequests, every result says what it requested: a redirect hop its own method (a
// 303 turns a POST into a GET, a 307 keeps it) and URL, a resource its URL. Without it, hops and
// resources carry no name and are shown by their target.
func TestRequestNames(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/see-other":
			http.Redirect(w, r, "/page", http.StatusSeeOther)
		case "/temporary":
			http.Redirect(w, r, "/form", http.StatusTemporaryRedirect)
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<script src=/a.js></script>`))
		}
	})
	post := func(path string) urls.Target {
		tg := target(t, site.URL+path)
		tg.Method, tg.Body = "POST", []byte("a=1")
		return tg
	}
	tests := []struct {
		name   string
		target urls.Target
		named  bool
		want   []string
	}{
		{"303 turns a POST into a GET", post("/see-other"), true,
			[]string{"POST /see-other", "GET /page", "GET /a.js"}},
		{"307 keeps the POST", post("/temporary"), true, []string{"POST /temporary", "POST /form"}},
		{"unnamed", post("/see-other"), false, []string{"POST /see-other", "POST /see-other", "POST /see-other"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Users: 1, Reps: 1, Parser: true, FollowRedirects: true, NameRequests: tc.named, Timeout: 5 * time.Second}
			l, err := New(cfg, []urls.Target{tc.target})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var c collect
			l.Run(ctx, &c)
			var got []string
			for i := range c.results {
				r := &c.results[i]
				if r.Kind == KindPage {
					continue
				}
				method, u, ok := l.Request(r)
				if !ok {
					t.Errorf("result %d unnamed", i)
				}
				got = append(got, method+" "+u[len(site.URL):])
			}
			// Resources may finish in any order; here there is one, last.
			if !slices.Equal(got, tc.want) {
				t.Errorf("requests %q, want %q", got, tc.want)
			}
		})
	}
}

// The table of names is bounded: past it, a request is unnamed rather than growing memory.
func TestRequestNamesBound(t *testing.T) {
	t.Parallel()
	var n requestNames
	if a, b := n.id("GET", "http://h/a"), n.id("GET", "http://h/a"); a != 1 || b != 1 {
		t.Errorf("the same request got ids %d and %d, want 1", a, b)
	}
	if id := n.id("POST", "http://h/a"); id != 2 {
		t.Errorf("another method got id %d, want 2", id)
	}
	n.list = make([]namedRequest, maxRequestNames) // full
	if id := n.id("GET", "http://h/new"); id != unnamed {
		t.Errorf("a request past the bound got id %d, want unnamed", id)
	}
}
