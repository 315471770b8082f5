package loader

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/webload/webload/urls"
)

// Credentials given for the URL list (Authorization, as -u sets it, and the other secret
// headers) go only to the host and port of the URL, as curl sends them: not to another host a
// redirect leads to, nor to a resource host, unless AuthAnyHost. A header that is no secret
// goes everywhere, and a redirect back to the URL's host carries the credentials again.
func TestCredentialsStayOnTheirHost(t *testing.T) {
	t.Parallel()
	var siteURL string
	other := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/there" {
			http.Redirect(w, r, siteURL+"/back", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/there", http.StatusFound)
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<img src="/own.png"><img src="%s/cdn.png">`, other.URL)
		default:
			_, _ = w.Write([]byte("ok"))
		}
	})
	siteURL = site.URL
	headers := []Header{
		{"Authorization", "Basic YW5uOnMzY3JldA=="}, {"X-Api-Key", "k3y"}, {"Cookie", "session=abc"}, {"X-Trace", "t1"},
	}
	secret := []string{"Authorization", "X-Api-Key", "Cookie"}
	cases := []struct {
		name       string
		path       string
		cfg        Config
		otherPath  string // what the other host was asked
		sitePaths  []string
		otherGetsT bool // the other host gets the secrets too
	}{
		{"redirect to another port", "/away", Config{FollowRedirects: true, FollowAnyHost: true},
			"/there", []string{"/away", "/back"}, false},
		{"resource host", "/page", Config{Parser: true, NoCache: true, ResourceHosts: []string{hostOf(t, other.URL)}},
			"/cdn.png", []string{"/page", "/own.png"}, false},
		{"redirect, asked to send them anywhere", "/away", Config{FollowRedirects: true, FollowAnyHost: true, AuthAnyHost: true},
			"/there", []string{"/away", "/back"}, true},
		{"resource host, asked to send them anywhere", "/page",
			Config{Parser: true, NoCache: true, ResourceHosts: []string{hostOf(t, other.URL)}, AuthAnyHost: true},
			"/cdn.png", []string{"/page", "/own.png"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Users, tc.cfg.Reps, tc.cfg.Headers = 1, 1, headers
			before := other.count("GET " + tc.otherPath)
			run(t, tc.cfg, []urls.Target{target(t, site.URL+tc.path)})
			if other.count("GET "+tc.otherPath) != before+1 {
				t.Fatalf("the other host was not asked for %s", tc.otherPath)
			}
			other.mu.Lock()
			got := other.headers[tc.otherPath]
			other.mu.Unlock()
			for _, name := range secret {
				if sent := got.Get(name) != ""; sent != tc.otherGetsT {
					t.Errorf("%s sent to the other host: %v, want %v", name, sent, tc.otherGetsT)
				}
			}
			if got.Get("X-Trace") != "t1" {
				t.Errorf("X-Trace %q on the other host, want it sent", got.Get("X-Trace"))
			}
			site.mu.Lock()
			defer site.mu.Unlock()
			for _, p := range tc.sitePaths {
				for _, name := range secret {
					if site.headers[p].Get(name) == "" {
						t.Errorf("%s not sent to the URL's own host for %s", name, p)
					}
				}
			}
		})
	}
}
