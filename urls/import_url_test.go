package urls

import (
	"strings"
	"testing"
)

func TestImportResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		opt       ImportOptions
		want      string
	}{
		{"path", "/p?q=1", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/p?q=1"},
		{"base with slash", "/p", ImportOptions{Base: testBase + "/"}, "http://127.0.0.1:8080/p"},
		{"base path prefix", "/p", ImportOptions{Base: "http://h:81/app/"}, "http://h:81/app/p"},
		{"full URL takes the base host", "https://prod.example/a/b?c=d", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/a/b?c=d"},
		{"full URL without path", "https://prod.example", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/"},
		{"full URL with only a query", "https://prod.example?x=1", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/?x=1"},
		{"full URL kept without base", "HTTPS://prod.example:8443/a", ImportOptions{}, "https://prod.example:8443/a"},
		{"userinfo replaced by base", "http://u:p@prod.example/a", ImportOptions{Base: "http://bob:pw@h/"}, "http://bob:pw@h/a"},
		{"fragment dropped", "/a#top", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/a"},
		{"fragment after query", "/a?b=1#top", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/a?b=1"},
		{"strip query", "/a?b=1&c=2", ImportOptions{Base: testBase, StripQuery: true}, "http://127.0.0.1:8080/a"},
		{"drop params keeps order", "/a?z=1&sid=9&a=2&SID=3&b", ImportOptions{Base: testBase, DropParams: []string{"sid"}}, "http://127.0.0.1:8080/a?z=1&a=2&b"},
		{"drop params by prefix", "/a?utm_source=x&id=1&utm_medium=y", ImportOptions{Base: testBase, DropParams: []string{"utm_*"}}, "http://127.0.0.1:8080/a?id=1"},
		{"drop params escaped name", "/a?s%69d=1&k=v", ImportOptions{Base: testBase, DropParams: []string{"sid"}}, "http://127.0.0.1:8080/a?k=v"},
		{"drop every param", "/a?sid=1", ImportOptions{Base: testBase, DropParams: []string{"sid"}}, "http://127.0.0.1:8080/a"},
		{"dollar is escaped", "/a?price=$5&v=$HOME", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/a?price=%245&v=%24HOME"},
		{"blanks are escaped", "/a b POST x", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/a%20b%20POST%20x"},
		{"comment marker is escaped", "/a #b", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/a%20"},
		{"non-ascii path", "/каталог", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/%D0%BA%D0%B0%D1%82%D0%B0%D0%BB%D0%BE%D0%B3"},
		{"existing escapes kept", "/a%2Fb?q=%E2%82%AC", ImportOptions{Base: testBase}, "http://127.0.0.1:8080/a%2Fb?q=%E2%82%AC"},
		{"double slash is a path", "//wp-login.php", ImportOptions{Base: testBase}, "http://127.0.0.1:8080//wp-login.php"},
		{"host filter matches", "https://Shop.Example:443/a", ImportOptions{Base: testBase, Host: "shop.example"}, "http://127.0.0.1:8080/a"},
		{"host filter with port", "https://shop.example:8443/a", ImportOptions{Base: testBase, Host: "shop.example:8443"}, "http://127.0.0.1:8080/a"},
		{"host filter given as a URL", "https://shop.example/a", ImportOptions{Base: testBase, Host: "https://shop.example/"}, "http://127.0.0.1:8080/a"},
		{"host filter ignores paths", "/a", ImportOptions{Base: testBase, Host: "shop.example"}, "http://127.0.0.1:8080/a"},
		{"ipv6 base", "/a", ImportOptions{Base: "http://[::1]:8080"}, "http://[::1]:8080/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			im, err := newImporter(tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, skip, err := im.resolve(tt.raw)
			if err != nil || skip != "" || got != tt.want {
				t.Errorf("resolve(%q) = %q, %q, %v; want %q", tt.raw, got, skip, err, tt.want)
			}
			if tg, err := ParseLine(got, Options{}); err != nil || tg.URL != got || tg.Method != "GET" {
				t.Errorf("ParseLine(%q) = %+v, %v", got, tg, err)
			}
		})
	}
}

func TestImportResolveRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		opt       ImportOptions
		skip      string
		err       string
	}{
		{"other host", "https://blog.example/a", ImportOptions{Base: testBase, Host: "shop.example"}, "host", ""},
		{"port differs", "https://shop.example:8443/a", ImportOptions{Base: testBase, Host: "shop.example:443"}, "host", ""},
		{"subdomain is another host", "https://www.shop.example/a", ImportOptions{Base: testBase, Host: "shop.example"}, "host", ""},
		{"no base", "/a", ImportOptions{}, "", "the rows have paths only; give --base URL"},
		{"relative", "a/b", ImportOptions{Base: testBase}, "", `not a URL or path: "a/b"`},
		{"other scheme", "android-app://com.x/", ImportOptions{Base: testBase}, "", `not a URL or path: "android-app://com.x/"`},
		{"empty", " ", ImportOptions{Base: testBase}, "", `not a URL or path: ""`},
		{"bad host without base", "http://bad_host!/a", ImportOptions{}, "", `bad URL "http://bad_host!/a": invalid host "bad_host!"`},
		{"bad port without base", "http://h:99999/a", ImportOptions{}, "", `bad URL "http://h:99999/a": invalid port "99999"`},
		{"long value is clipped", "x" + strings.Repeat("й", 60), ImportOptions{Base: testBase}, "", `not a URL or path: "x` + strings.Repeat("й", 39) + `..."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			im, err := newImporter(tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, skip, err := im.resolve(tt.raw)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if got != "" || skip != tt.skip || msg != tt.err {
				t.Errorf("resolve(%q) = %q, %q, %q; want skip %q, error %q", tt.raw, got, skip, msg, tt.skip, tt.err)
			}
		})
	}
}
