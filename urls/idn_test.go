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
