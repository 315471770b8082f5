package loader

import (
	"net/url"
	"slices"
	"testing"

	"github.com/webload/webload/urls"
)

// The names masked in content fingerprints are the URLs' hosts, where the mappings send their
// connections and what the mappings and the proxy name, each with its port and without.
func TestContentHosts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		sites []string
		cfg   Config
		want  []string
	}{
		{"no mapping", []string{"http://shop.example:8080/", "http://shop.example:8080/x"}, Config{},
			[]string{"shop.example:8080", "shop.example"}},
		{"connect-to", []string{"http://www.shop.example/"},
			Config{ConnectTo: []string{"www.shop.example:80:127.0.0.1:8081", "other.example::10.0.0.7:"}},
			[]string{"www.shop.example", "127.0.0.1:8081", "127.0.0.1", "10.0.0.7"}},
		{"resolve, IPv6 too", []string{"https://www.shop.example/"},
			Config{Resolve: []string{"www.shop.example:443:[::1],127.0.0.1", "x.example:80:10.0.0.5"}},
			[]string{"www.shop.example", "[::1]:443", "[::1]", "127.0.0.1:443", "127.0.0.1", "10.0.0.5"}},
		{"connect-to keeping the host", []string{"http://127.0.0.1:8080/"},
			Config{ConnectTo: []string{"::127.0.0.1:8081"}},
			[]string{"127.0.0.1:8080", "127.0.0.1", "127.0.0.1:8081"}},
		{"login steps and the proxy", []string{"http://shop.example/"},
			Config{Login: []urls.Target{{URL: "https://sso.example/login"}}, Proxy: "http://user:pw@proxy.example:3128"},
			[]string{"shop.example", "sso.example", "proxy.example:3128", "proxy.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var sites []*url.URL
			for _, s := range tc.sites {
				u, err := url.Parse(s)
				if err != nil {
					t.Fatal(err)
				}
				sites = append(sites, u)
			}
			if got := contentHosts(&tc.cfg, sites); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
