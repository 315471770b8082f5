package loader

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/urls"
)

// A browser-like visit follows a page's <meta http-equiv=refresh> as siege does: from a
// text/html 2xx page, when pages are parsed, even when HTTP redirects are not followed (-F),
// at once whatever the delay, under the hosts and hop limit of redirects. The page with the
// refresh and its target are each a transaction; the refresh counts as a redirect; the page's
// own resources are fetched before the target, as siege and a browser waiting out a delay do.
func TestMetaRefresh(t *testing.T) {
	t.Parallel()
	other := newHitServer(t, nil)
	refresh := func(w http.ResponseWriter, content string) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><meta http-equiv="refresh" content="%s"></head><body><img src=/pic.png>wait</body></html>`, content)
	}
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/now":
			refresh(w, "0; url=/target")
		case "/later":
			// An hour: a visit that waited for it would outlast the test's bound.
			refresh(w, "3600; url='/target'")
		case "/loop/a":
			refresh(w, "0;url=/loop/b")
		case "/loop/b":
			refresh(w, "0;url=/loop/a")
		case "/reload":
			refresh(w, "30")
		case "/self":
			refresh(w, "30; url=/self")
		case "/away":
			refresh(w, "0; url="+other.URL+"/there")
		case "/missing":
			w.WriteHeader(http.StatusNotFound)
			refresh(w, "0; url=/target")
		case "/plain":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, `<meta http-equiv="refresh" content="0; url=/target">`)
		case "/moved":
			http.Redirect(w, r, "/now", http.StatusFound)
		case "/pic.png":
			w.Header().Set("Content-Type", "image/png")
			fmt.Fprint(w, "png")
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>arrived</body></html>")
		}
	})
	browser := Config{Parser: true, FollowRedirects: true, NoCache: true}
	noFollow := Config{Parser: true, NoCache: true}
	anyHost := Config{Parser: true, FollowRedirects: true, FollowAnyHost: true, NoCache: true}
	cases := []struct {
		name     string
		path     string
		cfg      Config
		want     []string // the visit's requests of the URL and its hops, in order
		refresh  []bool   // which of them is marked as a refresh
		offHost  bool     // the last hop's refresh led off the URL list's hosts
		err      ErrKind  // of the last hop and the page
		other    int      // requests the other host got
		resource int      // resources fetched in the visit
	}{
		{"followed at once", "/now", browser, []string{"/now", "/target"}, []bool{true, false}, false, ErrNone, 0, 1},
		{"a delay is not waited for", "/later", browser, []string{"/later", "/target"}, []bool{true, false}, false, ErrNone, 0, 1},
		{"followed with -F, as siege does", "/now", noFollow, []string{"/now", "/target"}, []bool{true, false}, false, ErrNone, 0, 1},
		{"after an HTTP redirect", "/moved", browser, []string{"/moved", "/now", "/target"}, []bool{false, true, false}, false, ErrNone, 0, 1},
		{"without the parser, as a redirect", "/now", Config{FollowRedirects: true, Cookies: true}, []string{"/now", "/target"}, []bool{true, false}, false, ErrNone, 0, 0},
		{"without the parser, after an HTTP redirect", "/moved", Config{FollowRedirects: true}, []string{"/moved", "/now", "/target"}, []bool{false, true, false}, false, ErrNone, 0, 0},
		{"without the parser, a loop ends at the redirect limit", "/loop/a", Config{FollowRedirects: true, MaxRedirects: 3},
			[]string{"/loop/a", "/loop/b", "/loop/a", "/loop/b"}, []bool{true, true, true, true}, false, ErrTooManyHops, 0, 0},
		{"without the parser, a reload is not followed", "/reload", Config{FollowRedirects: true}, []string{"/reload"}, []bool{false}, false, ErrNone, 0, 0},
		{"not without the parser and redirects", "/now", Config{Cookies: true}, []string{"/now"}, []bool{false}, false, ErrNone, 0, 0},
		{"a loop ends at the redirect limit", "/loop/a", Config{Parser: true, MaxRedirects: 3, NoCache: true},
			[]string{"/loop/a", "/loop/b", "/loop/a", "/loop/b"}, []bool{true, true, true, true}, false, ErrTooManyHops, 0, 4},
		{"a reload is not followed", "/reload", browser, []string{"/reload"}, []bool{false}, false, ErrNone, 0, 1},
		{"a reload naming the page is not followed", "/self", browser, []string{"/self"}, []bool{false}, false, ErrNone, 0, 1},
		{"off host refused", "/away", browser, []string{"/away"}, []bool{true}, true, ErrNone, 0, 1},
		{"off host allowed", "/away", anyHost, []string{"/away", "/there"}, []bool{true, false}, false, ErrNone, 1, 1},
		{"not from an error page", "/missing", browser, []string{"/missing"}, []bool{false}, false, ErrNone, 0, 1},
		{"not from a page that is not HTML", "/plain", browser, []string{"/plain"}, []bool{false}, false, ErrNone, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Not parallel: the cases count the requests of shared servers.
			tc.cfg.Users, tc.cfg.Reps, tc.cfg.NameRequests = 1, 1, true
			before, beforeOther := site.snapshot(), other.snapshot()
			l, results, _ := runLoader(t, tc.cfg, []urls.Target{target(t, site.URL+tc.path)})
			var got []string
			var marked []bool
			var last, pageRes Result
			resources := 0
			for _, r := range results {
				switch r.Kind {
				case KindURL:
					_, u, _ := l.Request(&r)
					u = strings.TrimPrefix(strings.TrimPrefix(u, site.URL), other.URL)
					got, marked, last = append(got, u), append(marked, r.Refresh), r
					if r.Refresh != r.Redirected() && r.Status == 200 && r.Err == ErrNone {
						t.Errorf("%s: a refresh that is not counted as a redirect: %+v", u, r)
					}
				case KindResource:
					resources++
				case KindPage:
					pageRes = r
				}
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(marked, tc.refresh) {
				t.Fatalf("requests %q marked %v, want %q marked %v", got, marked, tc.want, tc.refresh)
			}
			if last.OffHost != tc.offHost || last.Err != tc.err {
				t.Errorf("last hop %+v, want off-host %v, failure kind %v", last, tc.offHost, tc.err)
			}
			if pageRes.Err != tc.err || pageRes.Status != last.Status {
				t.Errorf("page %+v, want the last hop's status %d and failure kind %v", pageRes, last.Status, tc.err)
			}
			if resources != tc.resource {
				t.Errorf("%d resources fetched, want %d", resources, tc.resource)
			}
			after := site.snapshot()
			for _, p := range slices.Compact(slices.Sorted(slices.Values(tc.want))) {
				if p == "/there" {
					continue
				}
				n := 0
				for _, w := range tc.want {
					if w == p {
						n++
					}
				}
				if d := after["GET "+p] - before["GET "+p]; d != n {
					t.Errorf("site saw %d requests of %s, want %d", d, p, n)
				}
			}
			if d := other.snapshot()["GET /there"] - beforeOther["GET /there"]; d != tc.other {
				t.Errorf("other host got %d requests, want %d", d, tc.other)
			}
		})
	}
}

// A URL's checks apply to the page its meta refresh leads to, as they apply past a followed
// redirect: the page that sends the browser on is not the answer the user listed.
func TestMetaRefreshChecks(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/now":
			fmt.Fprint(w, `<meta http-equiv="refresh" content="0; url=/target">wait`)
		case "/reload":
			fmt.Fprint(w, `<meta http-equiv="refresh" content="10">wait`)
		default:
			fmt.Fprint(w, "arrived")
		}
	})
	cases := []struct {
		name, path, check string
		want              []ErrKind // of the URL's requests, in order, then of the page
	}{
		{"the target passes", "/now", `body~"arrived"`, []ErrKind{ErrNone, ErrNone, ErrNone}},
		{"the target fails", "/now", `body~"wait"`, []ErrKind{ErrNone, ErrCheck, ErrCheck}},
		{"a reload is the page itself", "/reload", `body~"arrived"`, []ErrKind{ErrCheck, ErrCheck}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, cfg := range []Config{{Parser: true}, {FollowRedirects: true}} {
				cfg.Users, cfg.Reps, cfg.Checks = 1, 1, mustChecks(t, tc.check)
				results, _ := run(t, cfg, []urls.Target{target(t, site.URL+tc.path)})
				var got []ErrKind
				for _, r := range results {
					if r.Kind == KindURL || r.Kind == KindPage {
						got = append(got, r.Err)
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("parser %v: failure kinds %v, want %v", cfg.Parser, got, tc.want)
				}
			}
		})
	}
}
