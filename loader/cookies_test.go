package loader

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fasthttp"
)

// setCookies stores in c what a response to u setting the cookies named would leave.
func setCookies(t testing.TB, c *cookies, u *url.URL, names ...string) {
	t.Helper()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(resp)
	for _, name := range names {
		resp.Header.Add("Set-Cookie", name+"=v-"+name+"; Path=/")
	}
	c.keep(resp, u)
}

// sentCookies is the Cookie header c puts on a request to u.
func sentCookies(c *cookies, u *url.URL) string {
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	c.add(req, u)
	return string(req.Header.Peek("Cookie"))
}

// A site that sets a new cookie with every answer keeps the jar at the cap, as browsers do: the
// request carries the newest cookies, the oldest are evicted.
func TestCookieJarStaysAtTheCap(t *testing.T) {
	t.Parallel()
	const reps = maxCookiesPerSite + 40
	var mu sync.Mutex
	var answers, most, last int
	var lastHeader string
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n := len(r.Cookies())
		most, last, lastHeader = max(most, n), n, r.Header.Get("Cookie")
		name := fmt.Sprintf("c%d", answers)
		answers++
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: name, Value: "v", Path: "/"})
	})
	results, _ := run(t, Config{Users: 1, Reps: reps, Cookies: true}, pageTargets(t, srv.URL, 1))
	if len(results) != 2*reps { // a request and a page per visit
		t.Fatalf("%d results, want %d", len(results), 2*reps)
	}
	mu.Lock()
	defer mu.Unlock()
	if most != maxCookiesPerSite || last != maxCookiesPerSite {
		t.Errorf("requests carried up to %d cookies, the last %d; want the cap, %d", most, last, maxCookiesPerSite)
	}
	// The last request follows answers 0..reps-2: the newest cap of them are kept.
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"c0", false},
		{fmt.Sprintf("c%d", reps-2-maxCookiesPerSite), false},
		{fmt.Sprintf("c%d", reps-1-maxCookiesPerSite), true},
		{fmt.Sprintf("c%d", reps-2), true},
	} {
		if got := strings.Contains("; "+lastHeader+";", "; "+tc.name+"=v;"); got != tc.want {
			t.Errorf("last request carries %s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A second jar-wide cap bounds a user that visits many sites: the oldest cookies go first,
// whichever site set them.
func TestCookieJarTotalCap(t *testing.T) {
	t.Parallel()
	c := newCookies()
	const sites = maxCookies/maxCookiesPerSite + 3
	for s := range sites {
		u := &url.URL{Scheme: "http", Host: fmt.Sprintf("site%d.example", s), Path: "/"}
		names := make([]string, maxCookiesPerSite)
		for i := range names {
			names[i] = fmt.Sprintf("c%d", i)
		}
		setCookies(t, c, u, names...)
	}
	total := 0
	for s := range sites {
		u := &url.URL{Scheme: "http", Host: fmt.Sprintf("site%d.example", s), Path: "/"}
		n := len(c.jar.Cookies(u))
		total += n
		evicted := sites*maxCookiesPerSite - maxCookies
		wantSite := min(maxCookiesPerSite, max(0, (s+1)*maxCookiesPerSite-evicted))
		if n != wantSite {
			t.Errorf("site %d keeps %d cookies, want %d", s, n, wantSite)
		}
	}
	if total != maxCookies {
		t.Errorf("the jar holds %d cookies, want %d", total, maxCookies)
	}
}

// The cookies a server sets again replace what the jar has and take no more room, and a cookie
// the server deletes frees its place.
func TestCookieJarCountsReplacedAndDeleted(t *testing.T) {
	t.Parallel()
	c := newCookies()
	u := &url.URL{Scheme: "http", Host: "127.0.0.1:8080", Path: "/a/page"}
	for range 3 {
		setCookies(t, c, u, "sid", "theme")
	}
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(resp)
	resp.Header.Add("Set-Cookie", "theme=; Path=/; Max-Age=0")
	c.keep(resp, u)
	if got := sentCookies(c, u); got != "sid=v-sid" {
		t.Errorf("Cookie: %q, want sid=v-sid", got)
	}
	if got := c.count(); got != 1 {
		t.Errorf("the jar counts %d cookies, want 1", got)
	}
}

// BenchmarkCookieHeader measures building a request's Cookie header from a jar that was given
// n cookies for the URL (it keeps the newest maxCookiesPerSite).
func BenchmarkCookieHeader(b *testing.B) {
	for _, n := range []int{10, 50, maxCookiesPerSite, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			c := newCookies()
			u := &url.URL{Scheme: "http", Host: "127.0.0.1:8080", Path: "/"}
			for i := range n {
				setCookies(b, c, u, fmt.Sprintf("cookie%d", i))
			}
			req := fasthttp.AcquireRequest()
			defer fasthttp.ReleaseRequest(req)
			b.ReportAllocs()
			for b.Loop() {
				req.Header.DelAllCookies()
				c.add(req, u)
			}
			if got, want := strings.Count(string(req.Header.Peek("Cookie")), "="), min(n, maxCookiesPerSite); got != want {
				b.Fatalf("%d cookies sent, want %d", got, want)
			}
		})
	}
}

// The run's own Cookie header (-H) goes with every request; a cookie of the same name from the
// jar, which the site set since, replaces its value.
func TestJarCookiesReplaceTheRunsOwn(t *testing.T) {
	t.Parallel()
	c := newCookies()
	u := &url.URL{Scheme: "http", Host: "127.0.0.1:8080", Path: "/"}
	setCookies(t, c, u, "sid", "theme")
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	req.Header.Set("Cookie", "lang=en; sid=from-the-run")
	c.add(req, u)
	if got, want := string(req.Header.Peek("Cookie")), "lang=en; sid=v-sid; theme=v-theme"; got != want {
		t.Errorf("Cookie: %q, want %q", got, want)
	}
}
