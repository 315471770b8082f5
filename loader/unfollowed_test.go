package loader

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// TestUnfollowedRedirectIsChecked: a redirect that a visit does not follow (to another host,
// such as a single sign-on page, or to a Location that is no http or https URL, or that does
// not parse) ends the visit, so it is what the URL answered: its checks judge it and its rules
// read it. A redirect the visit follows passes both on to where it leads. Either way, a
// redirect's body is no page: the image in it is not fetched.
func TestUnfollowedRedirectIsChecked(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/landing":
			fmt.Fprint(w, "token=page;")
		default: // /go?to=LOCATION
			w.Header().Set("Location", r.URL.Query().Get("to"))
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusFound)
			fmt.Fprint(w, `<html><body><img src="/moved.png">moved</body></html>`)
		}
	})
	for _, tc := range []struct {
		name, location string
		want           ErrKind // the visit's last answer, checked by status==200, then read by a rule
		offHost        bool
	}{
		{"followed", "/landing", ErrNone, false},
		{"another host", "http://sso.example.invalid/login?back=1", ErrCheck, true},
		{"javascript", "javascript:alert(1)", ErrCheck, false},
		{"file", "file:///etc/passwd", ErrCheck, false},
		{"malformed", "http://[::1", ErrCheck, false},
		{"no host", "http:///login", ErrCheck, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			u := site.URL + "/go?to=" + url.QueryEscape(tc.location)
			for _, rules := range []bool{false, true} {
				list := u + "\n"
				cfg := Config{Users: 1, Reps: 1, FollowRedirects: true, Cookies: true, Parser: true, NoCache: true}
				if rules {
					list = "#@extract token regex:token=(\\w+);\n" + list
				} else {
					cfg.Checks = mustChecks(t, "status==200")
				}
				_, targets := perUserFiles(t, nil, "", list)
				results, out := run(t, cfg, targets)
				want := tc.want
				if rules && want == ErrCheck {
					want = ErrExtract
				}
				var last, page Result
				for _, r := range results {
					if r.Kind == KindPage {
						page = r
					} else {
						last = r
					}
				}
				if last.Err != want || page.Err != want || last.OffHost != tc.offHost {
					t.Errorf("rules %v: last answer %+v, page %+v; want failure kind %v, off-host %v", rules, last, page, want, tc.offHost)
				}
				if n := site.count("GET /moved.png"); n != 0 {
					t.Errorf("rules %v: the image in a redirect's body fetched %d times", rules, n)
				}
				if want == ErrCheck && out.CheckSamples[0] != "check status==200 failed (status 302)" {
					t.Errorf("check message %q", out.CheckSamples[0])
				}
				if want == ErrExtract && (!last.Extracted || out.ExtractSamples[0] == "") {
					t.Errorf("rules not applied to the redirect that ended the visit: %+v, samples %v", last, out.ExtractSamples)
				}
			}
		})
	}
}
