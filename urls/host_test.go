package urls

import (
	"net/url"
	"strings"
	"testing"
)

// TestHostPattern is the rule every host check follows: case, punycode, trailing dot, IPv6
// brackets, and ports (any port without one, the scheme's default for URLs without one).
func TestHostPattern(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, pattern, url string
		want               bool
	}{
		{"same name", "shop.example", "http://shop.example/a", true},
		{"case of the pattern", "SHOP.Example", "http://shop.example/", true},
		{"case of the URL", "shop.example", "http://Shop.EXAMPLE/", true},
		{"another name", "shop.example", "http://cdn.example/", false},
		{"a subdomain is another host", "example", "http://shop.example/", false},
		{"no port matches any port", "shop.example", "http://shop.example:8080/", true},
		{"no port matches https", "shop.example", "https://shop.example/", true},
		{"port matches the same port", "shop.example:8080", "http://shop.example:8080/", true},
		{"port refuses another port", "shop.example:8080", "http://shop.example:8081/", false},
		{"port refuses the default port", "shop.example:8080", "http://shop.example/", false},
		{"80 is http's default", "shop.example:80", "http://shop.example/", true},
		{"443 is https's default", "shop.example:443", "https://shop.example/", true},
		{"80 is not https's default", "shop.example:80", "https://shop.example/", false},
		{"443 is not http's default", "shop.example:443", "http://shop.example/", false},
		{"a written default port", "shop.example:443", "http://shop.example:443/", true},
		{"unicode pattern, punycode URL", "bücher.example", "http://xn--bcher-kva.example/", true},
		{"punycode pattern, unicode URL", "xn--bcher-kva.example", "http://bücher.example/", true},
		{"unicode in other case", "BÜCHER.example", "http://Bücher.Example/", true},
		{"unicode with a port", "bücher.example:8443", "https://xn--bcher-kva.example:8443/", true},
		{"near-miss of a unicode name", "bücher.example", "http://bucher.example/", false},
		{"trailing dot in the URL", "shop.example", "http://shop.example./", true},
		{"trailing dot in the pattern", "shop.example.", "http://shop.example/", true},
		{"trailing dot with a port", "shop.example.:8080", "http://shop.example.:8080/", true},
		{"IPv4", "127.0.0.1", "http://127.0.0.1:8080/", true},
		{"IPv4 with a port", "127.0.0.1:8080", "http://127.0.0.1:8080/", true},
		{"IPv4 is not a name", "127.0.0.1", "http://localhost/", false},
		{"IPv6 in brackets", "[::1]", "http://[::1]:8080/", true},
		{"IPv6 in brackets with a port", "[::1]:8080", "http://[::1]:8080/", true},
		{"IPv6 with another port", "[::1]:8080", "http://[::1]:9090/", false},
		{"IPv6 without brackets", "::1", "http://[::1]/", true},
		{"IPv6 with the default port", "[::1]:80", "http://[::1]/", true},
		{"IPv6 in upper case", "[FE80::1]", "http://[fe80::1]/", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := ParseHostPattern(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			u, err := url.Parse(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.MatchURL(u); got != tc.want {
				t.Errorf("%q matches %q: %v, want %v", tc.pattern, tc.url, got, tc.want)
			}
			var set HostSet
			set.Add(p)
			if got := set.Has(u); got != tc.want {
				t.Errorf("set of %q has %q: %v, want %v", tc.pattern, tc.url, got, tc.want)
			}
		})
	}
}

func TestParseHostPatternErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "  ", "http://shop.example", "shop.example/a", "u@shop.example",
		"shop example", "shop.example:", "shop.example:0", "shop.example:65536", "shop.example:http", "[::1", "[::1]x"} {
		if p, err := ParseHostPattern(in); err == nil || !strings.HasPrefix(err.Error(), "bad host ") {
			t.Errorf("ParseHostPattern(%q) = %+v, %v; want a bad host error", in, p, err)
		}
	}
	var zero HostPattern
	if zero.Match("http", "") || zero.Match("http", "shop.example") {
		t.Error("the zero HostPattern matches")
	}
	var empty HostSet
	if empty.Has(&url.URL{Scheme: "http", Host: "shop.example"}) {
		t.Error("the empty HostSet has a host")
	}
}

// TestSameHost: two URLs are on the same host when their hosts match by the rule and their
// ports, the scheme's default when none is written, are equal.
func TestSameHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{"http://shop.example/a", "http://shop.example/b", true},
		{"http://shop.example/", "http://SHOP.example:80/", true},
		{"https://shop.example/", "https://shop.example:443/", true},
		{"http://shop.example/", "https://shop.example/", false},
		{"http://shop.example/", "http://shop.example:8080/", false},
		{"http://shop.example./", "http://shop.example/", true},
		{"http://bücher.example/", "http://xn--bcher-kva.example:80/", true},
		{"http://[::1]:8080/", "http://[::1]:8080/x", true},
		{"http://[::1]/", "http://127.0.0.1/", false},
		{"http://cdn.example/", "http://shop.example/", false},
	}
	for _, tc := range tests {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := SameHost(a, b); got != tc.want {
			t.Errorf("SameHost(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		var set HostSet
		set.AddURL(a)
		if got := set.Has(b); got != tc.want {
			t.Errorf("set of %q has %q: %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// BenchmarkHostSetHas is the check made for every resource of every page and every redirect.
func BenchmarkHostSetHas(b *testing.B) {
	var set HostSet
	for _, h := range []string{"shop.example", "cdn.example:8080", "[::1]:443"} {
		p, err := ParseHostPattern(h)
		if err != nil {
			b.Fatal(err)
		}
		set.Add(p)
	}
	u, _ := url.Parse("https://CDN.example:8080/static/app.js")
	b.ReportAllocs()
	for b.Loop() {
		if !set.Has(u) {
			b.Fatal("not found")
		}
	}
}
