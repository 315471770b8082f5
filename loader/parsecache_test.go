package loader

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/page"
	"github.com/webload/webload/urls"
)

// The parse cache parses a page once per distinct body at its URL and otherwise gives back
// what a parse would: a changed body, another URL or a full cache all parse again.
func TestParseCache(t *testing.T) {
	t.Parallel()
	type visit struct {
		url, body string
		want      []string
	}
	pageA, pageB := `<img src=a.png><script src="/s.js">`, `<img src=b.png>`
	cases := []struct {
		name             string
		maxPages, maxURL int
		visits           []visit
		wantParses       int64
		wantPages        int
	}{
		{"same page again", 10, 100, []visit{
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
		}, 1, 1},
		{"changed body", 10, 100, []visit{
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/p", pageB, []string{"http://h/b.png"}},
			{"http://h/p", pageB, []string{"http://h/b.png"}},
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 3, 1},
		{"same body at another URL", 10, 100, []visit{
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
			{"http://h/y/p", pageA, []string{"http://h/y/a.png", "http://h/s.js"}},
			{"http://h/y/p", pageA, []string{"http://h/y/a.png", "http://h/s.js"}},
		}, 2, 2},
		{"other hosts left out before caching", 10, 100, []visit{
			{"http://h/p", `<img src=//cdn/i.png><img src=/j.png>`, []string{"http://h/j.png"}},
			{"http://h/p", `<img src=//cdn/i.png><img src=/j.png>`, []string{"http://h/j.png"}},
		}, 1, 1},
		{"full of pages", 1, 100, []visit{
			{"http://h/1", pageB, []string{"http://h/b.png"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 4, 1},
		{"full of resources", 10, 2, []visit{
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 3, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			find := func(body []byte, pageURL *url.URL) page.Found {
				var keep []*url.URL
				for _, u := range page.Resources(body, pageURL) {
					if sameHost(u, pageURL) {
						keep = append(keep, u)
					}
				}
				return page.Found{Resources: keep}
			}
			c := newParseCache(find, tc.maxPages, tc.maxURL)
			var key []byte
			for i, v := range tc.visits {
				u, err := url.Parse(v.url)
				if err != nil {
					t.Fatal(err)
				}
				var p *pageResources
				p, key = c.resources([]byte(v.body), u, key)
				if !slices.Equal(p.keys, v.want) || len(p.urls) != len(v.want) {
					t.Errorf("visit %d of %s: resources %q, want %q", i, v.url, p.keys, v.want)
				}
				for j, ru := range p.urls {
					if ru.String() != p.keys[j] {
						t.Errorf("visit %d: URL %d is %q, key %q", i, j, ru, p.keys[j])
					}
				}
			}
			if got := c.parses.Load(); got != tc.wantParses {
				t.Errorf("%d parses, want %d", got, tc.wantParses)
			}
			if len(c.pages) != tc.wantPages || c.held > tc.maxURL {
				t.Errorf("%d pages and %d URLs cached, want %d pages and at most %d URLs", len(c.pages), c.held, tc.wantPages, tc.maxURL)
			}
		})
	}
}

// A run parses each distinct page once, however many users visit it how often, and a page
// whose body changes between visits is parsed again, its new resources fetched.
func TestRunParsesEachPageOnce(t *testing.T) {
	t.Parallel()
	var served atomic.Int64
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/a", "/b":
			fmt.Fprintf(w, `<html><img src=%s.png><p>%s</p></html>`, r.URL.Path, strings.Repeat("text ", 2000))
		case "/new":
			// A new body, and a new image, on every visit.
			fmt.Fprintf(w, `<img src=/new-%d.png>`, served.Add(1))
		default:
			_, _ = w.Write([]byte("image"))
		}
	})
	cases := []struct {
		name       string
		paths      []string
		wantParses int64
		wantImages []string // fetched once each
	}{
		{"unchanged pages", []string{"/a", "/b"}, 2, nil},
		{"a page changed on every visit", []string{"/new"}, 3 * 4, []string{"/new-1.png", "/new-6.png", "/new-12.png"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var targets []urls.Target
			for _, p := range tc.paths {
				targets = append(targets, target(t, site.URL+p))
			}
			cfg := Config{Users: 3, Reps: 4, Parser: true, Cookies: true, FollowRedirects: true, Timeout: 5 * time.Second}
			l, err := New(cfg, targets)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var c collect
			if out := l.Run(ctx, &c); out.Stop != Completed {
				t.Fatalf("run stopped: %v", out.Stop)
			}
			if got := l.parsed.parses.Load(); got != tc.wantParses {
				t.Errorf("%d parses, want %d", got, tc.wantParses)
			}
			if k := kinds(c.results); k[KindResource] == 0 {
				t.Errorf("no resource fetched: %v", k)
			}
			for _, img := range tc.wantImages {
				if got := site.count("GET " + img); got != 1 {
					t.Errorf("%s fetched %d times, want 1", img, got)
				}
			}
		})
	}
}

// BenchmarkUserLoopPages is one browser-like user visiting a list of 50 distinct 30 KB HTML
// pages with 4 resources each, over an in-memory connection: the cost of a page visit when each
// page is parsed once per run and then found in the parse cache. An op is a page visit: the
// page alone once its resources are cached, the page and its 4 resources with no cache.
func BenchmarkUserLoopPages(b *testing.B) {
	b.Run("cached", func(b *testing.B) { benchPages(b, Config{Parser: true, Cookies: true, FollowRedirects: true}) })
	b.Run("no cache", func(b *testing.B) {
		benchPages(b, Config{Parser: true, Cookies: true, FollowRedirects: true, NoCache: true})
	})
}

func benchPages(b *testing.B, cfg Config) {
	pages := make([][]byte, 50)
	paths := make([]string, len(pages))
	for i := range pages {
		paths[i] = fmt.Sprintf("/page/%d", i)
		pages[i] = fmt.Appendf(nil, `<!DOCTYPE html><html><head><link rel=stylesheet href=/s.css><script src=/app.js></script></head>
<body><img src=/logo.png><img src=/p/%d.jpg srcset="/p/%d.jpg 1x, /p/%d@2x.jpg 2x">%s</body></html>`,
			i, i, i, strings.Repeat("<p>Plain text of a page that holds no resource at all. </p>\n", 500))
	}
	handle := func(ctx *fasthttp.RequestCtx) {
		var n int
		if _, err := fmt.Sscanf(string(ctx.Path()), "/page/%d", &n); err == nil && n < len(pages) {
			ctx.SetContentType("text/html; charset=utf-8")
			ctx.SetBody(pages[n])
			return
		}
		ctx.SetBodyString("resource")
	}
	sink, out, l := runInMemory(b, cfg, handle, paths)
	if out.Stop != Completed || sink.n < 2*b.N {
		b.Fatalf("%d results of %d visits, stop %v", sink.n, b.N, out.Stop)
	}
	if parses := l.parsed.parses.Load(); parses > int64(len(pages)) {
		b.Fatalf("%d parses of %d pages", parses, len(pages))
	}
}
