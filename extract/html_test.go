package extract

import "testing"

func TestCompound(t *testing.T) {
	t.Parallel()
	for sel, want := range map[string]bool{
		"input[name=wpLoginToken]": true,
		"#wpEditToken":             true,
		"input.a.b[type=hidden]":   true,
		`input[value="a b, c>d"]`:  true,
		`input[value='x\'y z']`:    true,
		"form input":               false,
		"form>input":               false,
		"h1 + p":                   false,
		"a ~ b":                    false,
		"a, b":                     false,
		"input:first-child":        false,
		"p:nth-of-type(2)":         false,
	} {
		if got := compound(sel); got != want {
			t.Errorf("compound(%q) = %v, want %v", sel, got, want)
		}
	}
}

// TestScanAgreesWithTree pins that the tokenizing path finds what the tree does, for the
// selectors it takes, on real login pages.
func TestScanAgreesWithTree(t *testing.T) {
	t.Parallel()
	rules := []string{
		"t css:input[name=wpLoginToken] value",
		"t css:#wpEditToken value",
		"t css:input[type=hidden] name",
		"t css:input[name=force] value",
		"t css:input[name=nothere] value",
		"t css:form action",
		"t css:input[name=_wpnonce] value",
		"t css:.button-primary value",
		"t css:a href",
		"t css:link href",
		`t css:button[value="Log in"] name`,
	}
	for _, page := range []string{"mediawiki-login.html", "wordpress-login.html"} {
		body := []byte(readPage(t, page))
		for _, s := range rules {
			r := mustParse(t, s)
			if !r.scan {
				t.Fatalf("%s does not take the tokenizing path", s)
			}
			v1, why1 := r.scanAttr(body)
			v2, why2 := r.cssValue(body)
			if v1 != v2 || why1 != why2 {
				t.Errorf("%s on %s: tokens give %q %q, the tree %q %q", s, page, v1, why1, v2, why2)
			}
		}
	}
}

func TestLeadingTag(t *testing.T) {
	t.Parallel()
	for sel, want := range map[string]string{
		"input[name=x]": "input",
		"INPUT.a":       "input",
		"h1#t":          "h1",
		"#id":           "",
		"[name=x]":      "",
		"*[name=x]":     "",
		"svg|a":         "",
		"my-el[a]":      "my-el",
	} {
		if got := leadingTag(sel); got != want {
			t.Errorf("leadingTag(%q) = %q, want %q", sel, got, want)
		}
	}
}
