package loader

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
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
	pageC := strings.Replace(pageA, "a.png", "c.png", 1) // pageA's length, one byte apart
	pageD := `<img src=//cdn/i.png><img src=/j.png>`
	const big = 1 << 20 // no bound on the bytes kept
	cases := []struct {
		name                      string
		maxPages, maxURL, maxKept int
		visits                    []visit
		wantParses                int64
		wantPages, wantKept       int // pages cached, bytes of bodies kept
	}{
		{"same page again", 10, 100, big, []visit{
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
		}, 1, 1, len(pageA)},
		{"changed body", 10, 100, big, []visit{
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/p", pageB, []string{"http://h/b.png"}},
			{"http://h/p", pageB, []string{"http://h/b.png"}},
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 3, 1, 0},
		{"same body at another URL", 10, 100, big, []visit{
			{"http://h/x/p", pageA, []string{"http://h/x/a.png", "http://h/s.js"}},
			{"http://h/y/p", pageA, []string{"http://h/y/a.png", "http://h/s.js"}},
			{"http://h/y/p", pageA, []string{"http://h/y/a.png", "http://h/s.js"}},
		}, 2, 2, 2 * len(pageA)},
		{"other hosts left out before caching", 10, 100, big, []visit{
			{"http://h/p", pageD, []string{"http://h/j.png"}},
			{"http://h/p", pageD, []string{"http://h/j.png"}},
		}, 1, 1, len(pageD)},
		{"full of pages", 1, 100, big, []visit{
			{"http://h/1", pageB, []string{"http://h/b.png"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 4, 1, 0},
		{"full of resources", 10, 2, big, []visit{
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 3, 1, len(pageA)},
		{"changed body of the same length, kept", 10, 100, big, []visit{
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/p", pageC, []string{"http://h/c.png", "http://h/s.js"}},
			{"http://h/p", pageC, []string{"http://h/c.png", "http://h/s.js"}},
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 3, 1, 0},
		{"changed body of the same length, hashed", 10, 100, 0, []visit{
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/p", pageC, []string{"http://h/c.png", "http://h/s.js"}},
			{"http://h/p", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 3, 1, 0},
		{"bodies past the bound hashed", 10, 100, len(pageA), []visit{
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/2", pageB, []string{"http://h/b.png"}},
			{"http://h/1", pageA, []string{"http://h/a.png", "http://h/s.js"}},
		}, 2, 2, len(pageA)},
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
			c := newParseCache(find, parseLimits{pages: tc.maxPages, resources: tc.maxURL, kept: tc.maxKept})
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
			kept := 0
			for _, p := range c.pages {
				kept += len(p.body)
			}
			if c.kept != tc.wantKept || kept != c.kept {
				t.Errorf("%d bytes of bodies kept (%d counted), want %d", kept, c.kept, tc.wantKept)
			}
		})
	}
}

// A run parses each distinct page once, however many users visit it how often, and a page
// whose body changes between visits is parsed again, its new resources fetched.
func TestRunParsesEachPageOnce(t *testing.T) {
	t.Parallel()
	// Users that reach a page none has cached yet each parse it (the first body stored is
	// kept), so for the count to be exact one user, the first to ask for /a or /b, visits both
	// alone: the server marks it with a cookie and holds the others' requests until it fetched
	// both pages' images, which it does only after parsing them.
	var leader atomic.Bool
	var aImage, bImage atomic.Bool
	var parsedBoth sync.Once
	bothParsed := make(chan struct{})
	var served atomic.Int64
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/a", "/b":
			if _, err := r.Cookie("leader"); err != nil {
				if leader.CompareAndSwap(false, true) {
					http.SetCookie(w, &http.Cookie{Name: "leader", Value: "yes", Path: "/"})
				} else {
					select {
					case <-bothParsed:
					case <-time.After(30 * time.Second): // a hang guard: the count then fails
					}
				}
			}
			fmt.Fprintf(w, `<html><img src=%s.png><p>%s</p></html>`, r.URL.Path, strings.Repeat("text ", 2000))
		case "/new":
			// A new body, and a new image, on every visit.
			fmt.Fprintf(w, `<img src=/new-%d.png>`, served.Add(1))
		default:
			if r.URL.Path == "/a.png" {
				aImage.Store(true)
			}
			if r.URL.Path == "/b.png" {
				bImage.Store(true)
			}
			if aImage.Load() && bImage.Load() {
				parsedBoth.Do(func() { close(bothParsed) })
			}
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
			// The timeout is a hang guard: a request the server holds waits for another user's.
			cfg := Config{Users: 3, Reps: 4, Parser: true, Cookies: true, FollowRedirects: true, Timeout: 30 * time.Second}
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
			for _, r := range c.results {
				if r.Err != ErrNone || r.Status != 200 {
					t.Errorf("result %+v, want a 200", r)
				}
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
	b.Run("cached", func(b *testing.B) { benchPages(b, Config{Parser: true, Cookies: true, FollowRedirects: true}, false) })
	b.Run("no cache", func(b *testing.B) {
		benchPages(b, Config{Parser: true, Cookies: true, FollowRedirects: true, NoCache: true}, false)
	})
	// The pages gzip'd, as real sites serve them: each decoded once, then recognised.
	b.Run("gzip", func(b *testing.B) { benchPages(b, Config{Parser: true, Cookies: true, FollowRedirects: true}, true) })
}

func benchPages(b *testing.B, cfg Config, gzipped bool) {
	pages := make([][]byte, 50)
	paths := make([]string, len(pages))
	for i := range pages {
		paths[i] = fmt.Sprintf("/page/%d", i)
		pages[i] = fmt.Appendf(nil, `<!DOCTYPE html><html><head><link rel=stylesheet href=/s.css><script src=/app.js></script></head>
<body><img src=/logo.png><img src=/p/%d.jpg srcset="/p/%d.jpg 1x, /p/%d@2x.jpg 2x">%s</body></html>`,
			i, i, i, strings.Repeat("<p>Plain text of a page that holds no resource at all. </p>\n", 500))
	}
	if gzipped {
		for i, p := range pages {
			pages[i] = fasthttp.AppendGzipBytes(nil, p)
		}
	}
	handle := func(ctx *fasthttp.RequestCtx) {
		var n int
		if _, err := fmt.Sscanf(string(ctx.Path()), "/page/%d", &n); err == nil && n < len(pages) {
			ctx.SetContentType("text/html; charset=utf-8")
			if gzipped {
				ctx.Response.Header.Set(fasthttp.HeaderContentEncoding, "gzip")
			}
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
	if decodes := l.decoded.decodes.Load(); gzipped && decodes > int64(len(pages)) {
		b.Fatalf("%d decodes of %d pages", decodes, len(pages))
	}
}

// BenchmarkParseCacheHit is what a visit of a cached page pays to know that its body is the
// one parsed before: a 31 KiB page (the mean of a site's most visited pages), its copy kept
// and compared byte for byte, or past the bound on kept bodies, hashed.
func BenchmarkParseCacheHit(b *testing.B) {
	body := []byte(`<!DOCTYPE html><html><head><link rel=stylesheet href=/s.css></head><body>` +
		strings.Repeat("<p>Plain text of a page that holds no resource at all.</p>\n", 520) + `</body></html>`)
	u, err := url.Parse("http://127.0.0.1/wiki/Main_Page")
	if err != nil {
		b.Fatal(err)
	}
	find := func(body []byte, pageURL *url.URL) page.Found {
		return page.Found{Resources: page.Resources(body, pageURL)}
	}
	for _, bc := range []struct {
		name string
		kept int
	}{{"kept", maxKeptBodies}, {"hashed", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			c := newParseCache(find, parseLimits{pages: maxParsedPages, resources: maxParsedResources, kept: bc.kept})
			key := []byte(nil)
			_, key = c.resources(body, u, key)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				var p *pageResources
				p, key = c.resources(body, u, key)
				if len(p.urls) != 1 {
					b.Fatalf("resources %v", p.keys)
				}
			}
			if got := c.parses.Load(); got != 1 {
				b.Fatalf("%d parses, want 1", got)
			}
		})
	}
}

// Two page URLs share a parse cache key only when they are the same URL, whatever bytes their
// decoded parts hold.
func TestPageKeyTellsURLsApart(t *testing.T) {
	t.Parallel()
	raw := []string{
		"http://h/a", "https://h/a", "http://h/a?", "http://h/a?q", "http://h/a#q", "http://h/a?#",
		"http://h/a%00b", "http://h/a%00b?c", "http://h/a?%00b", "http://h/a#%00b", "http://h/a%2Fb",
		"http://h/a/b", "http://h:80/a", "http://u@h/a", "http://u:p@h/a", "http://h/a%3F", "http://h/a?b#c",
		"http://h/a%23b", "mailto:a@h", "http:a", "http:///a", "http://h//a", "http://h/%C3%A9", "http://h/é",
	}
	keys := map[string]string{}
	for _, r := range raw {
		u, err := url.Parse(r)
		if err != nil {
			t.Fatal(err)
		}
		again, err := url.Parse(r)
		if err != nil {
			t.Fatal(err)
		}
		k := string(appendPageKey(nil, u))
		if string(appendPageKey([]byte("old key"), again)[len("old key"):]) != k {
			t.Errorf("%s: two keys for one URL", r)
		}
		if other, ok := keys[k]; ok && other != u.String() {
			t.Errorf("%s and %s share a key", other, u)
		}
		keys[k] = u.String()
	}
}
