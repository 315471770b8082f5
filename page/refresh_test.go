package page

import (
	"bytes"
	"net/url"
	"testing"
)

// A page's <body background> is an image the browser loads, as siege's parser fetches it.
func TestResourcesBodyBackground(t *testing.T) {
	t.Parallel()
	runResourceCases(t, testPage, []resourceCase{
		{"body background", `<body background="img/bg.gif"><img src=a.png>`,
			[]string{"http://h.example/dir/img/bg.gif", "http://h.example/dir/a.png"}},
		{"upper case, with a style", `<BODY BACKGROUND=/bg.png style="background:url(s.png)">`,
			[]string{"http://h.example/bg.png", "http://h.example/dir/s.png"}},
		{"empty background", `<body background="">`, nil},
		{"only on body", `<div background=d.png><table background=t.png>`, nil},
		{"not inside a template", `<template><body background=t.png></template>`, nil},
	})
}

// Find reports where the page's meta refresh sends a browser: the first <meta
// http-equiv=refresh> whose content parses counts (the HTML standard's shared declarative
// refresh steps), whatever its delay; one without a URL reloads the page itself.
func TestFindRefresh(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, html, want string // want "" means no refresh
	}{
		{"url after a delay of zero", `<meta http-equiv="refresh" content="0; url=/next">`, "http://h.example/next"},
		{"a delay is no reason not to go", `<meta http-equiv=refresh content="30;URL='next.html'">`, "http://h.example/dir/next.html"},
		{"upper case names", `<META HTTP-EQUIV="Refresh" CONTENT="5, url = &quot;n.html&quot; tail">`, "http://h.example/dir/n.html"},
		{"a URL without url=", `<meta http-equiv=refresh content="2; other.html">`, "http://h.example/dir/other.html"},
		{"url without = is part of the URL", `<meta http-equiv=refresh content="2; url next">`, "http://h.example/dir/url%20next"},
		{"fractional delay", `<meta http-equiv=refresh content=".5;url=/f">`, "http://h.example/f"},
		{"no URL reloads the page", `<meta http-equiv=refresh content="60">`, testPage},
		{"empty url= reloads the base", `<meta http-equiv=refresh content="1; url=">`, testPage},
		{"absolute URL on another host", `<meta http-equiv=refresh content="0;url=https://other.example/x#f">`, "https://other.example/x"},
		{"relative to base href", `<base href="/b/"><meta http-equiv=refresh content="0;url=n">`, "http://h.example/b/n"},
		{"the first one counts", `<meta http-equiv=refresh content="0;url=/a"><meta http-equiv=refresh content="0;url=/b">`, "http://h.example/a"},
		{"one that does not parse does not count", `<meta http-equiv=refresh content="soon; url=/a"><meta http-equiv=refresh content="0;url=/b">`, "http://h.example/b"},
		{"a reload counts as the first", `<meta http-equiv=refresh content="9"><meta http-equiv=refresh content="0;url=/b">`, testPage},
		{"junk after the delay", `<meta http-equiv=refresh content="1x;url=/a">`, ""},
		{"no content", `<meta http-equiv=refresh>`, ""},
		{"empty content", `<meta http-equiv=refresh content="">`, ""},
		{"other http-equiv", `<meta http-equiv=content-type content="0;url=/a">`, ""},
		{"javascript is not followed", `<meta http-equiv=refresh content="0;url=javascript:go()">`, ""},
		{"in a template", `<template><meta http-equiv=refresh content="0;url=/a"></template>`, ""},
		{"in a comment", `<!-- <meta http-equiv=refresh content="0;url=/a"> -->`, ""},
		{"in a script", `<script>"<meta http-equiv=refresh content='0;url=/a'>"</script>`, ""},
	}
	pageURL, err := url.Parse(testPage)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Options{}.Find([]byte(tt.html), pageURL).Refresh
			if s := urlString(got); s != tt.want {
				t.Errorf("Find(%q).Refresh = %q, want %q", tt.html, s, tt.want)
			}
			if ref := referenceFind(Options{}, []byte(tt.html), pageURL).Refresh; urlString(ref) != tt.want {
				t.Errorf("the tokenizer's reading gives %q, want %q", urlString(ref), tt.want)
			}
		})
	}
	if got := (Options{}).Find([]byte(`<meta http-equiv=refresh content="1">`), nil).Refresh; got != nil {
		t.Errorf("a reload of a page without a URL = %v, want none", got)
	}
}

// urlString is u.String(), or "" for nil.
func urlString(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.String()
}

// FuzzRefreshContent feeds arbitrary content attributes to parseRefresh: it must not panic,
// and the URL it finds is part of the content, after the delay.
func FuzzRefreshContent(f *testing.F) {
	for _, s := range []string{"0; url=/next", "5, URL = 'a b' c", ".5;x", "60", "1x", " 3 ;url\t=\"q\"", "", "url=x", "0;U"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		target, ok := parseRefresh(content)
		if !ok {
			if target != nil {
				t.Errorf("parseRefresh(%q) failed but found %q", content, target)
			}
			return
		}
		if !bytes.Contains(content, target) {
			t.Errorf("parseRefresh(%q) = %q, not part of the content", content, target)
		}
	})
}
