package loader

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/webload/webload/urls"
)

// kinds counts results by kind.
func kinds(results []Result) map[Kind]int {
	out := map[Kind]int{}
	for _, r := range results {
		out[r.Kind]++
	}
	return out
}

func target(t *testing.T, line string) urls.Target {
	t.Helper()
	tg, err := urls.ParseLine(line, urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// A page's resources are fetched like a browser would: on its host (and allowed hosts only),
// once per user while the cache holds, one candidate per image and no lazy image unless asked,
// every one a transaction, and the page timed as a whole.
func TestPageResources(t *testing.T) {
	cdn := newHitServer(t, nil)
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			_, _ = w.Write([]byte("resource"))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><link rel="stylesheet" href="/c.css"><script src='b.js'></script></head>
<body><img src=/a.png srcset="/a.png 1x, /a2.png 2x"><img src="%s/cdn.png"><img src=/lazy.png loading=lazy><a href="/not-a-resource">x</a></body></html>`, cdn.URL)
	})
	cases := []struct {
		name              string
		cfg               Config
		wantResources     int
		wantLazy, wantCDN int
	}{
		{"cached per user", Config{Users: 2, Reps: 3, Parser: true}, 2 * 3, 0, 0},
		{"no cache", Config{Users: 2, Reps: 3, Parser: true, NoCache: true}, 2 * 3 * 3, 0, 0},
		{"CDN allowed", Config{Users: 2, Reps: 3, Parser: true, ResourceHosts: []string{hostOf(t, cdn.URL)}}, 2 * 4, 0, 2},
		{"one at a time", Config{Users: 1, Reps: 2, Parser: true, ParallelResources: 1}, 3, 0, 0},
		{"lazy images", Config{Users: 2, Reps: 3, Parser: true, LazyImages: true}, 2 * 4, 2, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, beforeLazy, beforeCDN := site.count("GET /a2.png"), site.count("GET /lazy.png"), cdn.count("GET /cdn.png")
			results, _ := run(t, tc.cfg, []urls.Target{target(t, site.URL+"/page")})
			visits := tc.cfg.Users * tc.cfg.Reps
			k := kinds(results)
			if k[KindURL] != visits || k[KindResource] != tc.wantResources || k[KindPage] != visits {
				t.Fatalf("results by kind %v, want %d URL, %d resource, %d page", k, visits, tc.wantResources, visits)
			}
			if got := site.count("GET /a2.png") - before; got != 0 {
				t.Errorf("the 2x candidate /a2.png was fetched %d times; a 1x display takes /a.png", got)
			}
			if got := site.count("GET /lazy.png") - beforeLazy; got != tc.wantLazy {
				t.Errorf("/lazy.png fetched %d times, want %d", got, tc.wantLazy)
			}
			if got := cdn.count("GET /cdn.png") - beforeCDN; got != tc.wantCDN {
				t.Errorf("CDN fetched %d times, want %d", got, tc.wantCDN)
			}
			for _, r := range results {
				if r.Err != ErrNone || r.Status != 200 {
					t.Fatalf("result %+v", r)
				}
				if r.Kind == KindPage && r.Latency <= 0 {
					t.Fatalf("page without a load time: %+v", r)
				}
			}
		})
	}
	if n := site.count("GET /not-a-resource"); n != 0 {
		t.Errorf("a link was fetched %d times; links are not resources", n)
	}
}

// A login runs once per user before its first URL; the session cookie it sets is sent back by
// that user only, so every account page is served.
func TestLoginAndCookies(t *testing.T) {
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/login":
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "ann", Path: "/", HttpOnly: true})
			http.Redirect(w, r, "/welcome", http.StatusSeeOther)
		case "/account":
			c, err := r.Cookie("sid")
			if err != nil || c.Value != "ann" {
				http.Error(w, "log in first", http.StatusForbidden)
				return
			}
			_, _ = w.Write([]byte("your orders"))
		default:
			_, _ = w.Write([]byte("hello"))
		}
	})
	login := target(t, site.URL+"/login POST user=ann")
	cases := []struct {
		name       string
		cfg        Config
		wantStatus int
	}{
		{"cookies kept", Config{Users: 3, Reps: 4, Cookies: true, FollowRedirects: true, Login: []urls.Target{login}}, 200},
		{"no cookies", Config{Users: 3, Reps: 4, FollowRedirects: true, Login: []urls.Target{login}}, 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.ContentType = "application/x-www-form-urlencoded"
			before := site.count("POST /login")
			results, _ := run(t, tc.cfg, []urls.Target{target(t, site.URL+"/account")})
			if got := site.count("POST /login") - before; got != 3 {
				t.Errorf("%d logins, want one per user (3)", got)
			}
			if got := site.bodies["/login"]; got != "user=ann" {
				t.Errorf("login posted %q", got)
			}
			k := kinds(results)
			// Each login is a POST answered 303 and the GET of /welcome it leads to.
			if k[KindLogin] != 6 || k[KindURL] != 12 || k[KindPage] != 12 {
				t.Fatalf("results by kind %v", k)
			}
			for _, r := range results {
				if r.Kind == KindURL && int(r.Status) != tc.wantStatus {
					t.Fatalf("account answered %d, want %d", r.Status, tc.wantStatus)
				}
				if r.Kind == KindURL && r.Target != 0 || r.Kind == KindLogin && r.Target != 1 {
					t.Fatalf("result booked under target %d: %+v", r.Target, r)
				}
			}
		})
	}
}

// Redirects are followed hop by hop, each a transaction, up to the limit; a hop to a host
// outside the URL list is not followed unless allowed, and is marked.
func TestRedirects(t *testing.T) {
	other := newHitServer(t, nil)
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/r1":
			http.Redirect(w, r, "/r2", http.StatusFound)
		case "/r2":
			http.Redirect(w, r, site2(r)+"/final", http.StatusMovedPermanently)
		case "/away":
			http.Redirect(w, r, other.URL+"/there", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/form":
			http.Redirect(w, r, "/done", http.StatusSeeOther)
		case "/keep":
			http.Redirect(w, r, "/kept", http.StatusTemporaryRedirect)
		default:
			_, _ = w.Write([]byte("ok"))
		}
	})
	cases := []struct {
		name      string
		line      string
		cfg       Config
		wantHops  int // results per visit
		wantLast  int
		offHost   bool
		wantOther int
		wantHit   string
		wantErr   ErrKind // of the last hop and of the page
	}{
		{"chain", "/r1", Config{FollowRedirects: true}, 3, 200, false, 0, "GET /final", ErrNone},
		{"chain at the limit", "/r1", Config{FollowRedirects: true, MaxRedirects: 2}, 3, 200, false, 0, "GET /final", ErrNone},
		{"chain over the limit", "/r1", Config{FollowRedirects: true, MaxRedirects: 1}, 2, 301, false, 0, "", ErrTooManyHops},
		{"not followed", "/r1", Config{}, 1, 302, false, 0, "", ErrNone},
		{"off host refused", "/away", Config{FollowRedirects: true}, 1, 302, true, 0, "", ErrNone},
		{"off host allowed", "/away", Config{FollowRedirects: true, FollowAnyHost: true}, 2, 200, false, 2, "", ErrNone},
		{"loop over the limit", "/loop", Config{FollowRedirects: true, MaxRedirects: 4}, 5, 302, false, 0, "", ErrTooManyHops},
		{"loop over the default limit", "/loop", Config{FollowRedirects: true}, 11, 302, false, 0, "", ErrTooManyHops},
		{"303 makes a GET", "/form POST a=1", Config{FollowRedirects: true}, 2, 200, false, 0, "GET /done", ErrNone},
		{"307 keeps the method", "/keep POST a=1", Config{FollowRedirects: true}, 2, 200, false, 0, "POST /kept", ErrNone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Users, tc.cfg.Reps = 1, 2
			beforeOther := other.count("GET /there")
			beforeHit := site.count(tc.wantHit)
			results, _ := run(t, tc.cfg, []urls.Target{target(t, site.URL+tc.line)})
			var hops []Result
			for _, r := range results {
				if r.Kind == KindURL {
					hops = append(hops, r)
				}
				if r.Kind == KindPage && (r.Err != tc.wantErr || r.Failed() != (tc.wantErr != ErrNone)) {
					t.Errorf("page %+v, want failure kind %v", r, tc.wantErr)
				}
			}
			if len(hops) != 2*tc.wantHops {
				t.Fatalf("%d requests, want %d", len(hops), 2*tc.wantHops)
			}
			last := hops[len(hops)-1]
			if int(last.Status) != tc.wantLast || last.OffHost != tc.offHost || last.Err != tc.wantErr {
				t.Errorf("last hop %+v, want status %d, off-host %v, failure kind %v", last, tc.wantLast, tc.offHost, tc.wantErr)
			}
			if got := other.count("GET /there") - beforeOther; got != tc.wantOther {
				t.Errorf("other host got %d requests, want %d", got, tc.wantOther)
			}
			if tc.wantHit != "" && site.count(tc.wantHit)-beforeHit != 2 {
				t.Errorf("%q seen %d times, want 2", tc.wantHit, site.count(tc.wantHit)-beforeHit)
			}
		})
	}
}

// site2 is the absolute base of the server answering r, for redirects written as absolute URLs.
func site2(r *http.Request) string { return "http://" + r.Host }

// Compressed answers are counted as received and as decoded, and HTML is parsed after decoding.
func TestContentEncoding(t *testing.T) {
	page := []byte(strings.Repeat("<p>shop</p>", 2000) + `<img src="/img.png">`)
	for _, enc := range encoders {
		t.Run(enc.name, func(t *testing.T) {
			encoded := encodeWith(t, enc.encode, page)
			site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/img.png" {
					_, _ = w.Write([]byte("png"))
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("Content-Encoding", enc.header)
				_, _ = w.Write(encoded)
			})
			results, _ := run(t, Config{Users: 1, Reps: 2, Parser: true, AcceptEncoding: "gzip, deflate, br"},
				[]urls.Target{target(t, site.URL+"/p")})
			for _, r := range results {
				if r.Kind != KindURL {
					continue
				}
				if r.Err != ErrNone || r.BodyBytes != int64(len(encoded)) || r.Decoded != int64(len(page)) {
					t.Fatalf("result %+v, want %d bytes received and %d decoded", r, len(encoded), len(page))
				}
			}
			if k := kinds(results); k[KindResource] != 1 {
				t.Errorf("results by kind %v, want the image fetched once", k)
			}
			if got := site.headers["/p"].Get("Accept-Encoding"); got != "gzip, deflate, br" {
				t.Errorf("Accept-Encoding %q", got)
			}
		})
	}
	t.Run("corrupt", func(t *testing.T) {
		site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write([]byte("this is not gzip at all"))
		})
		results, _ := run(t, Config{Users: 1, Reps: 1}, []urls.Target{target(t, site.URL+"/p")})
		if results[0].Err != ErrBadResponse {
			t.Errorf("result %+v, want a bad response", results[0])
		}
	})
}

// Credentials written in a URL are sent as basic authentication.
func TestURLCredentials(t *testing.T) {
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "ann" || p != "s3cret" {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte("hi ann"))
	})
	withCreds := strings.Replace(site.URL, "http://", "http://ann:s3cret@", 1) + "/private"
	results, _ := run(t, Config{Users: 1, Reps: 2, FollowRedirects: true}, []urls.Target{target(t, withCreds)})
	for _, r := range results {
		if r.Kind == KindURL && r.Status != 200 {
			t.Fatalf("status %d, want 200", r.Status)
		}
	}
}
