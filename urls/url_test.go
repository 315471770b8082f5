package urls

import (
	"errors"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
	}{
		{"plain", "http://h/p", "http://h/p"},
		{"https", "https://h/p", "https://h/p"},
		{"no scheme", "www.example.com", "http://www.example.com/"},
		{"no scheme with path", "www.example.com/a?b=c", "http://www.example.com/a?b=c"},
		{"no scheme with port", "localhost:8080", "http://localhost:8080/"},
		{"no scheme with port and path", "localhost:8080/x", "http://localhost:8080/x"},
		{"no scheme ipv4", "127.0.0.1:8080/", "http://127.0.0.1:8080/"},
		{"no scheme ipv6", "[::1]:8080/", "http://[::1]:8080/"},
		{"upper-case scheme", "HTTP://H/", "http://H/"},
		{"mixed-case scheme", "HtTpS://h", "https://h/"},
		{"host kept as written", "http://WWW.Example.COM/", "http://WWW.Example.COM/"},
		{"empty path", "http://h", "http://h/"},
		{"empty path with query", "http://h?q=1", "http://h/?q=1"},
		{"empty path with port and query", "http://h:81?q=1", "http://h:81/?q=1"},
		{"fragment removed", "http://h/a?b=1#c", "http://h/a?b=1"},
		{"fragment after host", "http://h#c", "http://h/"},
		{"fragment with slash", "http://h/a#b/c?d", "http://h/a"},
		{"userinfo kept", "http://u:p@h/", "http://u:p@h/"},
		{"last at ends userinfo", "http://u:p@ss@h/", "http://u:p@ss@h/"},
		{"userinfo escaped", "http://u\"x@h/", "http://u%22x@h/"},
		{"ipv6", "http://[::1]/", "http://[::1]/"},
		{"ipv6 with port", "http://[::1]:8080/x", "http://[::1]:8080/x"},
		{"ipv6 with zone", "http://[fe80::1%25eth0]/", "http://[fe80::1%25eth0]/"},
		{"ipv4-mapped ipv6", "http://[::ffff:1.2.3.4]/", "http://[::ffff:1.2.3.4]/"},
		{"port 1", "http://h:1/", "http://h:1/"},
		{"port 65535", "http://h:65535/", "http://h:65535/"},
		{"port with leading zero", "http://h:080/", "http://h:080/"},
		{"path escaped", "http://h/a b/é?q=\"x\"", "http://h/a%20b/%C3%A9?q=%22x%22"},
		{"escapes kept", "http://h/a%2Fb?q=%41", "http://h/a%2Fb?q=%41"},
		{"bad percent", "http://h/100%?x=%zz", "http://h/100%25?x=%25zz"},
		{"dot segments kept", "http://h/a/../b/./c", "http://h/a/../b/./c"},
		{"query punctuation kept", "http://h/?a=1&b=$2;c=(3)&d=[4]", "http://h/?a=1&b=$2;c=(3)&d=[4]"},
		{"double slash path kept", "http://h//a", "http://h//a"},
		{"host with underscore and tilde", "http://a_b~c-d.e/", "http://a_b~c-d.e/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := normalizeURL(c.in)
			if err != nil {
				t.Fatalf("normalizeURL(%q) error: %v", c.in, err)
			}
			if got != c.want {
				t.Errorf("normalizeURL(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestNormalizeURLErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
		scheme         bool
	}{
		{"ftp", "ftp://h/", `unsupported scheme "ftp"`, true},
		{"upper-case ftp", "FTP://h/", `unsupported scheme "FTP"`, true},
		{"mailto", "mailto:a@b.c", `unsupported scheme "mailto"`, true},
		{"other scheme", "h2c://h/", `unsupported scheme "h2c"`, true},
		{"scheme without slashes", "http:/h/", `missing "//" after "http:"`, false},
		{"scheme only", "https:", `missing "//" after "https:"`, false},
		{"no host", "http://", "missing host", false},
		{"no host with path", "http:///x", "missing host", false},
		{"no host with port", "http://:80/", "missing host", false},
		{"no host after userinfo", "http://u@/", "missing host", false},
		{"no host with query", "http://?q", "missing host", false},
		{"no host no scheme", "/path", "missing host", false},
		{"letters in port", "http://h:80a/", `invalid port "80a"`, false},
		{"letters in port without scheme", "localhost:80a", `invalid port "80a"`, false},
		{"empty port", "http://h:/", `invalid port ""`, false},
		{"port zero", "http://h:0/", `invalid port "0"`, false},
		{"port too big", "http://h:65536/", `invalid port "65536"`, false},
		{"port too long", "http://h:000080/", `invalid port "000080"`, false},
		{"signed port", "http://h:+80/", `invalid port "+80"`, false},
		{"two ports", "http://h:1:2/", `invalid port "1:2"`, false},
		{"space in host", "http://h h/", `invalid host "h h"`, false},
		{"non-ascii host that is no name", "http://bü!cher.de/", `invalid host "bü!cher.de": idna: disallowed rune U+0021`, false},
		{"percent in host", "http://h%41/", `invalid host "h%41"`, false},
		{"unclosed ipv6", "http://[::1/", `invalid host "[::1"`, false},
		{"bad ipv6", "http://[zz]/", `invalid host "[zz]"`, false},
		{"ipv4 in brackets", "http://[1.2.3.4]/", `invalid host "[1.2.3.4]"`, false},
		{"raw zone", "http://[fe80::1%eth0]/", `invalid host "[fe80::1%eth0]"`, false},
		{"empty zone", "http://[fe80::1%25]/", `invalid host "[fe80::1%25]"`, false},
		{"text after ipv6", "http://[::1]x/", `invalid host "[::1]x"`, false},
		{"bad ipv6 port", "http://[::1]:0/", `invalid port "0"`, false},
		{"unbracketed ipv6", "http://::1/", "missing host", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := normalizeURL(c.in)
			if err == nil {
				t.Fatalf("normalizeURL(%q) = %q, want error %q", c.in, got, c.want)
			}
			if err.Error() != c.want {
				t.Errorf("normalizeURL(%q) error = %q, want %q", c.in, err, c.want)
			}
			if is := errors.Is(err, ErrUnsupportedScheme); is != c.scheme {
				t.Errorf("errors.Is(err, ErrUnsupportedScheme) = %v, want %v", is, c.scheme)
			}
		})
	}
}
