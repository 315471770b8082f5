package urls

import (
	"fmt"
	"strings"
	"testing"
)

func TestEscapeRequestBytes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
	}{
		{"clean", "/a/b?c=d&e=f", "/a/b?c=d&e=f"},
		{"space", "/a b", "/a%20b"},
		{"tab", "/a\tb", "/a%09b"},
		{"control bytes", "/\x00\x1f\x7f", "/%00%1F%7F"},
		{"delimiters", "/\"<>\\^`{|}", "/%22%3C%3E%5C%5E%60%7B%7C%7D"},
		{"utf-8 bytes", "/é", "/%C3%A9"},
		{"existing escape kept", "/a%2Fb", "/a%2Fb"},
		{"lower-case escape kept", "/a%2fb", "/a%2fb"},
		{"escape never decoded", "/%41", "/%41"},
		{"bad escape", "/%zz", "/%25zz"},
		{"half escape", "/%4", "/%254"},
		{"percent at end", "/100%", "/100%25"},
		{"percent before escape", "/%%41", "/%25%41"},
		{"legal punctuation kept", "/!$&'()*+,;=:@[]~-._", "/!$&'()*+,;=:@[]~-._"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := escapeRequestBytes(c.in); got != c.want {
				t.Errorf("escapeRequestBytes(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestEscapeEveryByte checks each single byte so no byte class is forgotten.
func TestEscapeEveryByte(t *testing.T) {
	t.Parallel()
	for b := 0; b < 256; b++ {
		in := string([]byte{byte(b)})
		got := escapeRequestBytes(in)
		escaped := b <= ' ' || b >= 0x7f || b == '%' || strings.IndexByte("\"<>\\^`{|}", byte(b)) >= 0
		want := in
		if escaped {
			want = fmt.Sprintf("%%%02X", b)
		}
		if got != want {
			t.Errorf("escapeRequestBytes(%q) = %q, want %q", in, got, want)
		}
	}
}
