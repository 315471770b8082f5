package extract

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that any rule text either parses into a rule that reads back the same
// from its String, or fails with a column inside the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"token css:input[name=wpLoginToken] value",
		`token regex:value="([^"]*)"`,
		"id json:items.#.id",
		"loc header:Location",
		"sid cookie:PHPSESSID",
		"t css:a text",
		" t  css:form  input[value=\"a b\"]   value \r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Col < 1 || pe.Col > len(s)+1 {
				t.Fatalf("Parse(%q) = %v: want an *Error with a column in 1..%d", s, err, len(s)+1)
			}
			return
		}
		again, err := Parse(r.String())
		if err != nil || again.String() != r.String() || again.kind != r.kind || again.arg != r.arg || again.attr != r.attr {
			t.Fatalf("Parse(%q).String() = %q reads back as %+v, %v", s, r.String(), again, err)
		}
		if !IsName(r.Name()) {
			t.Fatalf("Parse(%q) accepted the name %q", s, r.Name())
		}
	})
}

// FuzzExtract checks that a rule applied to any body and header never panics, and either
// finds a value or misses with ErrMissing and a message without the response's bytes.
func FuzzExtract(f *testing.F) {
	f.Add("t css:input[name=wpLoginToken] value", `<form><input type="hidden" value="+\" name="wpLoginToken"></form>`, "sid=abc; Path=/")
	f.Add("t regex:token=(\\w+)", "token=abc", "")
	f.Add("t json:a.b.0", `{"a":{"b":[1,2]}}`, "")
	f.Add("t json:a|@reverse", `[1,{"a":`, "")
	f.Add("t css:#x text", "<p id=x>one<b>two</b></p><table><p id=x>", "")
	f.Add("t cookie:sid", "", "sid=\"q\"; HttpOnly")
	f.Add("t header:X-Token", "", "")
	f.Fuzz(func(t *testing.T, rule, body, cookie string) {
		r, err := Parse(rule)
		if err != nil {
			return
		}
		h := http.Header{"Set-Cookie": {cookie}, "X-Token": {body}}
		v, err := r.Extract(Response{Body: []byte(body), Header: httpHeader(h)})
		if err == nil {
			return
		}
		if !errors.Is(err, ErrMissing) || v != "" {
			t.Fatalf("%s = %q, %v: want a value or ErrMissing", rule, v, err)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "extract "+r.Name()+": ") || !utf8.ValidString(msg) && utf8.ValidString(rule) {
			t.Fatalf("%s missed with %q", rule, msg)
		}
	})
}
