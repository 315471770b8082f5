package loader

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/webload/webload/check"
	"github.com/webload/webload/urls"
)

// pageSite serves /p/N (N < 16): an HTML page of 15 to 30 KB whose one image is /r/N.png, a different
// length per N; /json, a fingerprinted answer that is not a page; /old, a redirect to /p/0.
func pageSite(t *testing.T) *hitServer {
	t.Helper()
	// The bodies are made once: the server's allocations count in TestVisitAllocations.
	pages := make([][]byte, 16)
	for n := range pages {
		pages[n] = fmt.Appendf(nil, "<html><body>%s<img src=/r/%d.png>%s</body></html>",
			strings.Repeat("<p>Text of the page.</p>\n", 600+n*37), n, strings.Repeat("<p>More text.</p>", n))
	}
	return newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		switch {
		case r.URL.Path == "/old":
			http.Redirect(w, r, "/p/0", http.StatusFound)
		case r.URL.Path == "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"items": [%s1]}`, strings.Repeat("1, ", 10000))
		case strings.HasPrefix(r.URL.Path, "/r/"):
			w.Header().Set("Content-Type", "image/png")
			fmt.Fprint(w, "png")
		default:
			if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &n); err != nil || n >= len(pages) {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write(pages[n])
		}
	})
}

// A user holds no page buffer between its requests: the buffer is the pool's again once the
// page is parsed or fingerprinted, so 200 users do not each keep 64 KiB for the whole run.
func TestNoPageHeldBetweenRequests(t *testing.T) {
	t.Parallel()
	site := pageSite(t)
	browser := Config{Parser: true, Cookies: true, FollowRedirects: true}
	login := browser
	login.Login = []urls.Target{target(t, site.URL+"/p/3")}
	for _, tc := range []struct {
		name string
		cfg  Config
		path string
	}{
		{"browser, a page with a resource", browser, "/p/1"},
		{"browser, a redirect to a page", browser, "/old"},
		{"browser, a login step then a page", login, "/p/2"},
		{"browser, a fingerprinted answer that is no page", browser, "/json"},
		{"plain, a fingerprinted page", Config{}, "/p/1"},
		{"plain, a fingerprinted answer that is no page", Config{}, "/json"},
		{"browser, a checked page", checked(browser), "/p/1"},
		{"plain, a checked answer that is no page", checked(Config{}), "/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Users, tc.cfg.Reps, tc.cfg.Timeout = 1, 1, 5e9
			l, err := New(tc.cfg, []urls.Target{target(t, site.URL+tc.path)})
			if err != nil {
				t.Fatal(err)
			}
			out := make(chan *[]Result, 64)
			x := l.newExchange()
			defer x.release()
			b := l.newBatcher(out)
			v := l.newVisitor(x, 0, nil)
			for range 3 { // the first answers are all fingerprinted
				if v != nil {
					v.visit(0, nil, b)
				} else {
					b.add(l.send(x, 0, 0))
				}
				if cap(x.body.page) != 0 {
					t.Fatalf("the user holds a page buffer of %d bytes after its request", cap(x.body.page))
				}
			}
			if v != nil {
				for _, f := range v.fetchers {
					if cap(f.x.body.page) != 0 {
						t.Errorf("a resource fetcher holds a page buffer of %d bytes", cap(f.x.body.page))
					}
				}
				v.release()
			}
			if p := l.content.profiles()[0]; p.Samples != 3 || len(p.Segments()) == 0 {
				t.Errorf("%d answers fingerprinted, want 3 with segments", p.Samples)
			}
		})
	}
}

// checked is cfg with a body check, whose answers are held whole until they are judged.
func checked(cfg Config) Config {
	x, err := check.Parse(`body!~"database query error"`)
	if err != nil {
		panic(err)
	}
	cfg.Checks = []check.Expr{x}
	return cfg
}

// Users that share page buffers each parse their own page: every visit of /p/N fetches /r/N
// and nothing else. Run under the race detector, a buffer used after it went back to the pool
// is a race with the user that takes it next.
func TestUsersSharePageBuffers(t *testing.T) {
	t.Parallel()
	site := pageSite(t)
	const pages = 8
	cfg := Config{Users: pages, Reps: 25, Parser: true, NoCache: true, FollowRedirects: true, Cookies: true}
	results, out := run(t, cfg, pageTargets(t, site.URL, pages))
	if out.Stop != Completed || len(results) != pages*25*3 {
		t.Fatalf("%d results, stop %v; want %d", len(results), out.Stop, pages*25*3)
	}
	total := 0
	for i := range pages {
		visits, images := site.count(fmt.Sprintf("GET /p/%d", i)), site.count(fmt.Sprintf("GET /r/%d.png", i))
		if images != visits {
			t.Errorf("/p/%d visited %d times, its image fetched %d times", i, visits, images)
		}
		total += visits + images
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	if n := len(site.hits); n != 2*pages || total != pages*25*2 {
		t.Errorf("%d paths requested %d times, want %d paths %d times: %v", n, total, 2*pages, pages*25*2, site.hits)
	}
}

// A visit of a page parsed already allocates no page buffer: it takes one from the pool.
func TestVisitAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	site := pageSite(t)
	cfg := Config{Users: 1, Reps: 1, Timeout: 5e9, Parser: true, Cookies: true, FollowRedirects: true}
	l, err := New(cfg, pageTargets(t, site.URL, 4))
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan *[]Result, 1)
	go func() {
		for batch := range out {
			l.batches.Put(batch)
		}
	}()
	defer close(out)
	x := l.newExchange()
	defer x.release()
	b := l.newBatcher(out)
	v := l.newVisitor(x, 0, nil)
	defer v.release()
	for i := range 20 { // warm the pools, the parse cache, the resource cache and the learners
		v.visit(i%4, nil, b)
	}
	const visits = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range visits {
		v.visit(i%4, nil, b)
	}
	runtime.ReadMemStats(&after)
	perVisit := (after.TotalAlloc - before.TotalAlloc) / visits
	t.Logf("%d bytes allocated per visit", perVisit)
	// A page buffer is 32 KiB or more; what a visit allocates otherwise (the test server's
	// allocations count too) is far less.
	if perVisit > 12<<10 {
		t.Errorf("%d bytes allocated per visit of a parsed page, want at most 12 KiB", perVisit)
	}
}
