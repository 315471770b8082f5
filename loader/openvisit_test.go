package loader

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// In the open model with page parsing, a scheduled arrival is a URL visit: the URL, its redirect
// and its page's resources. N planned visits are N visits, whatever the server's speed, and the
// users started to keep the schedule share the run's cache as returning visitors do, so a slow
// server that makes the run start more users does not make pages heavier.
func TestOpenModelSchedulesVisits(t *testing.T) {
	t.Parallel()
	const visits, resources = 30, 3
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/go":
			http.Redirect(w, r, "/page", http.StatusFound)
		case "/page":
			// Slower than the arrivals' spacing, so that the run starts several users.
			time.Sleep(20 * time.Millisecond)
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<link rel=stylesheet href=/s.css><script src=/a.js></script><img src=/i.png>`))
		default:
			_, _ = w.Write([]byte("resource"))
		}
	})
	tests := []struct {
		name          string
		noCache       bool
		wantResources int
	}{
		{"shared cache", false, resources},
		{"no cache", true, visits * resources},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Rate: 500, MaxUsers: visits, Reps: visits, Parser: true, FollowRedirects: true, Cookies: true, NoCache: tc.noCache}
			results, out := run(t, cfg, []urls.Target{target(t, site.URL+"/go")})
			k := kinds(results)
			arrivals := 0
			for _, r := range results {
				if r.Arrival {
					arrivals++
					if r.Kind != KindURL {
						t.Errorf("arrival of kind %v, want the URL's first request", r.Kind)
					}
				}
			}
			if out.Stop != Completed || out.Unsent != 0 || arrivals != visits || k[KindPage] != visits {
				t.Fatalf("stop %v, %d unsent, %d arrivals, %d pages; want %d visits, all sent", out.Stop, out.Unsent, arrivals, k[KindPage], visits)
			}
			if k[KindURL] != 2*visits || k[KindResource] != tc.wantResources {
				t.Errorf("results by kind %v, want %d URL requests (with the redirect) and %d resources", k, 2*visits, tc.wantResources)
			}
			if out.Users < 2 {
				t.Errorf("%d users started; the test needs the schedule to start several", out.Users)
			}
		})
	}
}

// The run's shared cache holds a bounded number of resources: past it, resources are fetched
// on every visit rather than growing memory with a site of endless distinct asset URLs.
func TestResourceCacheBound(t *testing.T) {
	t.Parallel()
	c := newResourceCache(2)
	var got []bool
	for _, key := range []string{"a", "b", "a", "c", "c", "b"} {
		got = append(got, c.fetch(key))
	}
	if want := []bool{true, true, false, true, true, false}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("fetch: got %v, want %v", got, want)
	}
}
