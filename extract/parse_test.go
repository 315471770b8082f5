package extract

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		kind     kind
		str      string // Rule.String: name and source as written, blanks trimmed
	}{
		{"regex with a group", ` token regex:value="([^"]*)" name="wpLoginToken"`, kindRegex, `token regex:value="([^"]*)" name="wpLoginToken"`},
		{"regex without a group", "id regex:\\d+", kindRegex, "id regex:\\d+"},
		{"css attribute", "token css:input[name=wpLoginToken] value", kindCSS, "token css:input[name=wpLoginToken] value"},
		{"css with a descendant selector", "nonce css:form#loginform input[name=_wpnonce] value", kindCSS, "nonce css:form#loginform input[name=_wpnonce] value"},
		{"css text", "greeting css:#greeting b text", kindCSS, "greeting css:#greeting b text"},
		{"css quoted attribute value with a blank", `v css:input[value="Log In"] name`, kindCSS, `v css:input[value="Log In"] name`},
		{"json path", "sid json:data.session.id", kindJSON, "sid json:data.session.id"},
		{"json index", "first json:items.0.id", kindJSON, "first json:items.0.id"},
		{"header", "loc header:Location", kindHeader, "loc header:Location"},
		{"cookie", "sess cookie:wiki_session", kindCookie, "sess cookie:wiki_session"},
		{"surrounding blanks and CR", "  token \t header:X-Token  \r", kindHeader, "token header:X-Token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if r.kind != tt.kind || r.String() != tt.str {
				t.Errorf("Parse(%q) = kind %d %q, want %d %q", tt.in, r.kind, r.String(), tt.kind, tt.str)
			}
			if text, _ := r.MarshalText(); string(text) != tt.str {
				t.Errorf("MarshalText = %q, want %q", text, tt.str)
			}
		})
	}
}

func TestParseParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in                string
		varName, attr, arg, sel string
	}{
		{"css attribute lower-cased as the HTML parser does", "t css:input[name=x] VALUE", "t", "value", "", "input[name=x]"},
		{"css text", "t css:h1 text", "t", "", "", "h1"},
		{"header name", "t header:x-token", "t", "", "x-token", ""},
		{"cookie name", "t cookie:PHPSESSID", "t", "", "PHPSESSID", ""},
		{"json path", "t json:a.b", "t", "", "a.b", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mustParse(t, tt.in)
			if r.Name() != tt.varName || r.attr != tt.attr || r.arg != tt.arg || r.selector != tt.sel {
				t.Errorf("Parse(%q) = name %q attr %q arg %q selector %q, want %q %q %q %q",
					tt.in, r.Name(), r.attr, r.arg, r.selector, tt.varName, tt.attr, tt.arg, tt.sel)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "col 1: want NAME SOURCE"},
		{"only blanks", "   ", "col 4: want NAME SOURCE"},
		{"bad name", "to-ken header:X", `col 1: bad variable name "to-ken"`},
		{"name in brackets", "$(token) header:X", `col 1: bad variable name "$(token)"`},
		{"no source", "token", "col 6: want a source after the name"},
		{"no source after blanks", " token  ", "col 9: want a source after the name"},
		{"unknown source", "token xpath://a", `col 7: unknown source "xpath"`},
		{"source without colon", "token body", `col 7: unknown source "body"`},
		{"empty regex", "token regex:", "col 13: want a regular expression after regex:"},
		{"bad regex", "token regex:a(b", "col 13: bad regular expression"},
		{"css without attribute", "token css:input", "col 16: want an attribute name or text after the selector"},
		{"css empty", "token css:", "col 11: want css:SELECTOR ATTR or css:SELECTOR text"},
		{"bad selector", "token css:input[ value", "col 11: bad selector"},
		{"bad attribute", "token css:a $$", `col 13: bad attribute name "$$"`},
		{"empty json path", "token json:", "col 12: want a JSON path after json:"},
		{"empty header", "token header:", "col 14: want a header name after header:"},
		{"text after header", "token header:X Y", `col 16: unexpected "Y" after the header name`},
		{"bad header byte", "token header:X:Y", `col 15: unexpected ":Y" after the header name`},
		{"empty cookie", "token cookie:", "col 14: want a cookie name after cookie:"},
		{"cookie with a value", "token cookie:a=b", `col 15: unexpected "=b" after the cookie name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.in)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %v, want an *Error", tt.in, err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Parse(%q) = %q, want it to start with %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestNeedsBody(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"t regex:a":      true,
		"t css:a href":   true,
		"t json:a":       true,
		"t header:X":     false,
		"t cookie:sid":   false,
		"t regex:(a)(b)": true,
	} {
		r := mustParse(t, in)
		if r.NeedsBody() != want {
			t.Errorf("Parse(%q).NeedsBody() = %v, want %v", in, r.NeedsBody(), want)
		}
	}
}

// mustParse parses a rule a test relies on.
func mustParse(t testing.TB, s string) Rule {
	t.Helper()
	r, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return r
}
