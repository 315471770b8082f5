package urls

import (
	"slices"
	"strings"
	"testing"
)

// An import's --host keeps the rows on that host by the rule of HostPattern: case, punycode,
// trailing dot and default ports, read from an analytics export.
func TestImportHostFilter(t *testing.T) {
	t.Parallel()
	const export = "Page;Pageviews;Users;Bounce rate\n" +
		"https://shop.example/a;10;1;0 %\n" +
		"https://SHOP.example./b;10;1;0 %\n" +
		"http://shop.example:8080/c;10;1;0 %\n" +
		"http://shop.example/d;10;1;0 %\n" +
		"https://bücher.example/e;10;1;0 %\n" +
		"http://[::1]:8080/f;10;1;0 %\n" +
		"https://cdn.example/g;10;1;0 %\n"
	tests := []struct {
		host string
		want []string // the paths kept
	}{
		{"shop.example", []string{"/a", "/b", "/c", "/d"}},
		{"Shop.Example.", []string{"/a", "/b", "/c", "/d"}},
		{"shop.example:443", []string{"/a", "/b"}},
		{"shop.example:80", []string{"/d"}},
		{"shop.example:8080", []string{"/c"}},
		{"https://shop.example/", []string{"/a", "/b", "/c", "/d"}},
		{"xn--bcher-kva.example", []string{"/e"}},
		{"BÜCHER.example:443", []string{"/e"}},
		{"[::1]", []string{"/f"}},
		{"[::1]:8080", []string{"/f"}},
		{"[::1]:80", nil},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			t.Parallel()
			entries, _, err := ImportReader(strings.NewReader(export), "export.csv", ImportOptions{Host: tc.host})
			if tc.want == nil {
				if err == nil {
					t.Fatalf("kept %v, want no row", entries)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.URL[strings.LastIndexByte(e.URL, '/'):])
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("kept %q, want %q", got, tc.want)
			}
		})
	}
}
