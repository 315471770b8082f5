package page

import (
	"slices"
	"testing"
)

func TestCSSUnescape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"no escapes", `a.png`, "a.png"},
		{"escaped punctuation", `a\(1\)\ b.png`, "a(1) b.png"},
		{"hex with the space that ends it", `\61 \62.png`, "ab.png"},
		{"hex ended by a non-hex byte", `\2Fx`, "/x"},
		{"six hex digits at most", `\00006162`, "a62"},
		{"CRLF after hex counts as one space", "\\61\r\nb", "ab"},
		{"non-ASCII code point", `caf\e9.png`, "café.png"},
		{"zero is the replacement character", `\0 a`, "\uFFFDa"},
		{"surrogate is the replacement character", `\D800 a`, "\uFFFDa"},
		{"beyond Unicode is the replacement character", `\110000 a`, "\uFFFDa"},
		{"escaped newline is dropped", "a\\\nb", "ab"},
		{"backslash at the end is dropped", `a\`, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := string(cssUnescape(nil, []byte(tt.in))); got != tt.want {
				t.Errorf("cssUnescape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// The scanner reads CSS token by token, so it must survive text cut anywhere.
func TestCSSScannerCutText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		css  string
		want []string
	}{
		{"url cut before the parenthesis", `a{b:url(x.png`, []string{"x.png"}},
		{"quoted url cut", `a{b:url("x.png`, []string{"x.png"}},
		{"url cut after spaces", `a{b:url(x.png   `, []string{"x.png"}},
		{"escape at the end", `a{b:url(x\`, nil},
		{"import cut", `@import`, nil},
		{"import string cut", `@import "a.css`, []string{"a.css"}},
		{"bad string at a newline", "@import \"a.css\n\"b.css\";", nil},
		{"escaped newline in a string", "@import \"a\\\n.css\";", []string{"a\\\n.css"}},
		{"comment cut", `/* url(a.png)`, nil},
		{"lone backslash before a newline", "\\\nurl(a.png)", []string{"a.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := cssScanner{src: []byte(tt.css), imports: true}
			var got []string
			for {
				u, _, ok := s.next()
				if !ok {
					break
				}
				got = append(got, string(u))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("urls in %q = %q, want %q", tt.css, got, tt.want)
			}
		})
	}
}
