package loader

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/urls"
)

// Redirects are followed to the hosts of the URL list by the rule of urls.HostPattern: case,
// punycode, trailing dot and default ports. Every host name is routed to one loopback site by
// a proxy, so none is looked up.
func TestRedirectHostRule(t *testing.T) {
	t.Parallel()
	locations := map[string]string{}
	tests := []struct {
		name, list, location string
		followed             bool
	}{
		{"case", "http://shop.example", "http://SHOP.Example/end", true},
		{"trailing dot", "http://shop.example", "http://shop.example./end", true},
		{"default port written", "http://shop.example", "http://shop.example:80/end", true},
		{"another port", "http://shop.example", "http://shop.example:8080/end", false},
		{"another scheme's default port", "http://shop.example", "https://shop.example/end", false},
		{"another host", "http://shop.example", "http://cdn.example/end", false},
		{"unicode to punycode list", "http://bücher.example", "http://BÜCHER.example/end", true},
		{"escaped unicode", "http://bücher.example", "http://b%C3%BCcher.example/end", true},
		{"punycode list in unicode", "http://xn--bcher-kva.example", "http://bücher.example./end", true},
	}
	for i, tc := range tests {
		locations[fmt.Sprintf("/to/%d", i)] = tc.location
	}
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if loc, ok := locations[r.URL.Path]; ok {
			w.Header().Set("Location", loc) // as written: http.Redirect would escape it
			w.WriteHeader(http.StatusFound)
		}
	})
	proxy := newRoutingProxy(t, site.Listener.Addr().String())
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Users: 1, Reps: 1, FollowRedirects: true, Proxy: proxy.url("")}
			results, _ := run(t, cfg, []urls.Target{target(t, fmt.Sprintf("%s/to/%d", tc.list, i))})
			var hops []Result
			for _, r := range results {
				if r.Kind == KindURL {
					hops = append(hops, r)
				}
			}
			want := 1
			if tc.followed {
				want = 2
			}
			if len(hops) != want || hops[0].Status != http.StatusFound || hops[0].OffHost == tc.followed {
				t.Errorf("hops %+v, want %d (followed %v)", hops, want, tc.followed)
			}
			if tc.followed && (hops[1].Status != 200 || hops[1].Err != ErrNone) {
				t.Errorf("the followed hop failed: %+v", hops[1])
			}
		})
	}
}

// Page resources are fetched from the page's host and ResourceHosts by the rule of
// urls.HostPattern, through a proxy that routes every name to one loopback site.
func TestResourceHostRule(t *testing.T) {
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			_, _ = w.Write([]byte("resource"))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<html><body>
<img src="http://SHOP.example.:80/same.png">
<img src="http://cdn.example/a.png"><img src="http://CDN.example./b.png">
<img src="http://cdn.example:8080/c.png"><img src="http://xn--bcher-kva.example/d.png">
</body></html>`))
	})
	proxy := newRoutingProxy(t, site.Listener.Addr().String())
	tests := []struct {
		name    string
		hosts   []string
		fetched []string
	}{
		{"page host only", nil, []string{"same"}},
		{"a name", []string{"cdn.example"}, []string{"a", "b", "c", "same"}},
		{"case and trailing dot", []string{"CDN.Example."}, []string{"a", "b", "c", "same"}},
		{"the default port", []string{"cdn.example:80"}, []string{"a", "b", "same"}},
		{"another port", []string{"cdn.example:8080"}, []string{"c", "same"}},
		{"unicode", []string{"bücher.example"}, []string{"d", "same"}},
		{"not a host", []string{"http://cdn.example/"}, []string{"same"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := site.snapshot()
			cfg := Config{Users: 1, Reps: 1, Parser: true, ResourceHosts: tc.hosts, Proxy: proxy.url("")}
			results, _ := run(t, cfg, []urls.Target{target(t, "http://shop.example/page")})
			var fetched []string
			for path, n := range site.snapshot() {
				if strings.HasSuffix(path, ".png") && n > before[path] {
					fetched = append(fetched, strings.TrimSuffix(strings.TrimPrefix(path, "GET /"), ".png"))
				}
			}
			slices.Sort(fetched)
			if !slices.Equal(fetched, tc.fetched) {
				t.Errorf("fetched %q, want %q", fetched, tc.fetched)
			}
			if k := kinds(results); k[KindResource] != len(tc.fetched) {
				t.Errorf("results by kind %v, want %d resources", k, len(tc.fetched))
			}
		})
	}
}
