package urls

import (
	"strings"
	"testing"
)

// A password holding a character that ends the authority ('#', '/', '?') makes the URL invalid;
// the error must still never show any piece of the password, since URL files and command lines
// end up in CI logs.
func TestURLErrorsNeverShowThePassword(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		url      string
		password string
	}{
		{"hash in password", "http://user:Qz#Wx@127.0.0.1/", "Qz#Wx"},
		{"slash in password before a port", "http://user:Qz/Wx@127.0.0.1:80/", "Qz/Wx"},
		{"question mark in password", "http://user:Qz?Wx@127.0.0.1/a", "Qz?Wx"},
		{"hash then slash", "https://user:Kj#Pm/Vb@127.0.0.1:8443/x", "Kj#Pm/Vb"},
		{"password ending in the delimiter", "http://user:Qzx/@127.0.0.1/", "Qzx/"},
		{"no scheme", "user:Qz#Wx@127.0.0.1/", "Qz#Wx"},
		{"letters then slash", "http://user:ab12cd/Wx@127.0.0.1/", "ab12cd/Wx"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, fileErr := Parse(strings.NewReader("http://127.0.0.1/\n"+tc.url+" POST a=1\n"), "urls.txt", "", Options{})
			_, lineErr := ParseLine(tc.url, Options{})
			for _, c := range []struct {
				err    error
				prefix string
			}{{fileErr, "urls.txt:2: "}, {lineErr, "command line: "}} {
				if c.err == nil {
					t.Fatalf("%q parsed, want an error", tc.url)
				}
				msg := c.err.Error()
				if !strings.HasPrefix(msg, c.prefix) {
					t.Errorf("error %q does not start with %q", msg, c.prefix)
				}
				for _, piece := range strings.FieldsFunc(tc.password, func(r rune) bool { return strings.ContainsRune("#/?", r) }) {
					if strings.Contains(msg, piece) {
						t.Errorf("error %q shows %q of the password", msg, piece)
					}
				}
			}
		})
	}
}
