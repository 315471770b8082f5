package urls

import (
	"strings"
	"testing"
)

// Host names in other scripts are sent in punycode: that is what DNS, TLS certificates and the
// Host header expect, and it is the URL reports show.
func TestInternationalHostsBecomePunycode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want, wantErr string
	}{
		{name: "german", in: "http://bücher.example/", want: "http://xn--bcher-kva.example/"},
		{name: "with port and path", in: "https://bücher.example:8443/a?q=ü", want: "https://xn--bcher-kva.example:8443/a?q=%C3%BC"},
		{name: "upper case folds", in: "http://BÜCHER.example/", want: "http://xn--bcher-kva.example/"},
		{name: "cyrillic", in: "http://пример.испытание/", want: "http://xn--e1afmkfd.xn--80akhbyknj4f/"},
		{name: "user info kept", in: "http://bob:pw@bücher.example/", want: "http://bob:pw@xn--bcher-kva.example/"},
		{name: "no scheme", in: "bücher.example/x", want: "http://xn--bcher-kva.example/x"},
		{name: "ascii host as written", in: "http://WWW.Example.com/", want: "http://WWW.Example.com/"},
		{name: "not a name", in: "http://bü☃cher!.example/", wantErr: "invalid host"},
		{name: "bad port", in: "http://bücher.example:x/", wantErr: `invalid port "x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseLine(tc.in, Options{})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("ParseLine(%q) = %q, %v; want an error containing %q", tc.in, got.URL, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseLine(%q): %v", tc.in, err)
			}
			if got.URL != tc.want {
				t.Errorf("ParseLine(%q).URL = %q, want %q", tc.in, got.URL, tc.want)
			}
		})
	}
}

// An import follows the URL lines' rule for hosts in other scripts (punycode, folded to lower
// case), in --base, --host and the rows alike, so an imported list names the hosts a run sends.
func TestImportInternationalHosts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, want, skip string
		opt                   ImportOptions
	}{
		{name: "base", raw: "/a", opt: ImportOptions{Base: "http://bücher.example:8080/"}, want: "http://xn--bcher-kva.example:8080/a"},
		{name: "base with path", raw: "/a", opt: ImportOptions{Base: "https://BÜCHER.example/shop/"}, want: "https://xn--bcher-kva.example/shop/a"},
		{name: "base in punycode", raw: "/a", opt: ImportOptions{Base: "http://xn--bcher-kva.example/"}, want: "http://xn--bcher-kva.example/a"},
		{name: "row without base", raw: "http://пример.испытание/a", want: "http://xn--e1afmkfd.xn--80akhbyknj4f/a"},
		{name: "host filter matches the row", raw: "http://bücher.example/a", opt: ImportOptions{Host: "bücher.example"}, want: "http://xn--bcher-kva.example/a"},
		{name: "host filter in punycode matches", raw: "http://Bücher.example/a", opt: ImportOptions{Host: "xn--bcher-kva.example"}, want: "http://xn--bcher-kva.example/a"},
		{name: "host filter with port", raw: "http://bücher.example:8443/a", opt: ImportOptions{Base: testBase, Host: "bücher.example:8443"}, want: "http://127.0.0.1:8080/a"},
		{name: "host filter given as a URL", raw: "http://xn--bcher-kva.example/a", opt: ImportOptions{Base: testBase, Host: "https://bücher.example/"}, want: "http://127.0.0.1:8080/a"},
		{name: "other host", raw: "http://bucher.example/a", opt: ImportOptions{Base: testBase, Host: "bücher.example"}, skip: importSkipHost},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			im, err := newImporter(tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, skip, err := im.resolve(tc.raw)
			if err != nil || skip != tc.skip || got != tc.want {
				t.Errorf("resolve(%q) = %q, %q, %v; want %q, %q", tc.raw, got, skip, err, tc.want, tc.skip)
			}
		})
	}
}

// A host that is no name in any script is refused by --base and --host as by a URL line.
func TestImportRefusesBadInternationalHosts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opt  ImportOptions
		want string
	}{
		{"base", ImportOptions{Base: "http://bü☃cher!.example/"}, "bad --base"},
		{"host", ImportOptions{Host: "bü☃cher!.example"}, "bad --host"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := newImporter(tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("newImporter(%+v) = %v; want an error containing %q", tc.opt, err, tc.want)
			}
		})
	}
}
