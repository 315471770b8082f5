package page

import (
	"bytes"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
)

// FuzzScannerMatchesTokenizer checks that Resources finds what it found when it read pages
// with golang.org/x/net/html's tokenizer (referenceResources), in the same order, on every
// input: the scanner must split a page where the tokenizer does (comments, raw text, script
// escapes, attribute quoting) and read attribute values as it does (entities, NUL, CR).
func FuzzScannerMatchesTokenizer(f *testing.F) {
	for _, tc := range scannerCases {
		f.Add([]byte(tc.body), "http://h/d/p", false)
	}
	f.Add([]byte(miniShop), shopURL, true)
	f.Fuzz(func(t *testing.T, body []byte, page string, lazy bool) {
		pageURL, err := url.Parse(page)
		if err != nil {
			pageURL = nil
		}
		in := bytes.Clone(body)
		found := Options{LazyImages: lazy}.Find(body, pageURL)
		ref := referenceFind(Options{LazyImages: lazy}, body, pageURL)
		got, want := urlStrings(found.Resources), urlStrings(ref.Resources)
		if !slices.Equal(got, want) {
			t.Errorf("Resources(%q) = %q, the tokenizer's reading gives %q", body, got, want)
		}
		if urlString(found.Refresh) != urlString(ref.Refresh) {
			t.Errorf("Find(%q).Refresh = %v, the tokenizer's reading gives %v", body, found.Refresh, ref.Refresh)
		}
		if !bytes.Equal(body, in) {
			t.Errorf("Resources changed its input")
		}
	})
}

// scannerCases are the places where a scanner that only looks for tags can read a page
// differently from the HTML tokenizer; each must give the tokenizer's resources.
var scannerCases = []struct{ name, body string }{
	{"plain tags", `<img src=a.png><script src="b.js"></script><link rel=stylesheet href='c.css'>`},
	{"upper case", `<IMG SRC=a.png><LiNk REL=StyleSheet HREF=c.css>`},
	{"entities in values", `<img src="a.png?x=1&amp;y=2&copy=3&amp"><img src=b&#46;png><img src="c&notit;.png">`},
	{"CR and NUL in values", "<img src=\"a\r\n.png\"><img src=\"b\x00.png\"><img src\x00=x.png>"},
	{"repeated attributes", `<img src=a.png SRC=b.png><link href=x.css rel=icon href=y.css>`},
	{"equals and slashes in tags", `<img =src=x.png src=/a.png/><img src=b.png/ ><img/src=c.png><img src = "d.png" / >`},
	{"comments", `<!-- <img src=a.png> --><!--><img src=b.png><!---><img src=c.png><!-- --!><img src=d.png><!-- -- ><img src=e.png> -->`},
	{"bogus comments and doctype", `<!DOCTYPE html><!x <img src=a.png>><? <img src=b.png> ?><img src=c.png></ <img src=d.png>></><img src=e.png>`},
	{"raw text", `<title><img src=a.png></title><textarea><img src=b.png></TEXTAREA ><img src=c.png><xmp></xmp/><img src=d.png>`},
	{"style text", "<style>.a{background:url(a.png)}</style><style>@import 'b.css';</style\t><STYLE>\r.c{background:url(c\x00.png)}</sTyLe>"},
	{"style that never ends", `<style>.a{background:url(a.png)} </styl`},
	{"script end tags", `<script>if (a</b) {}</scriptx></script><img src=a.png><script>"</script>"<img src=b.png>`},
	{"script escapes", `<script><!--<script>x</script>--></script><img src=a.png></script><img src=b.png><script><!-- --></script><img src=c.png>`},
	{"script double escape end", `<script><!--<script></script><img src=a.png>--></script><img src=b.png>`},
	{"plaintext", `<img src=a.png><plaintext><img src=b.png></plaintext><img src=c.png>`},
	{"end tags with attributes", `</div title=">"><img src=a.png></picture x="<img src=b.png>">`},
	{"unclosed tag at the end", `<img src=a.png><img src="b.png`},
	{"unclosed attribute name at the end", `<img src=a.png><img src`},
	{"lone angle brackets", `a < b <<img src=a.png> <3 <-img src=b.png> <`},
	{"template and media", `<template><img src=a.png></template><picture><source srcset=b.webp type=image/webp><img src=c.jpg></picture><video poster=p.jpg><source src=v.mp4></video>`},
	{"style attributes", `<div style="background:url(a.png)"><p STYLE='background:url(b&amp;c.png)'><span title=style>`},
	{"base", `<base href="/x/"><img src=a.png><base href=/y/><img src=b.png>`},
	{"body background", `<BODY background="b&amp;g.png" bgcolor=white><body background=second.png>`},
	{"meta refresh", `<meta charset=utf-8><meta http-equiv="Refresh" content="0;url='/n?a=1&amp;b=2'"><meta http-equiv=refresh content=1>`},
	{"meta refresh with entities and CR", "<meta http-equiv=refresh content=\"5\r\n; URL=&quot;/x\ty&quot;\">"},
	{"meta refresh hidden", `<!-- <meta http-equiv=refresh content=0;url=/a> --><template><meta http-equiv=refresh content=0;url=/b></template><meta http-equiv=refresh content=0;url=/c>`},
}

func TestScannerMatchesTokenizer(t *testing.T) {
	t.Parallel()
	shop, err := os.ReadFile("testdata/shop.html")
	if err != nil {
		t.Fatal(err)
	}
	cases := append(slices.Clone(scannerCases), struct{ name, body string }{"shop page", string(shop)})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pageURL := &url.URL{Scheme: "http", Host: "h", Path: "/d/p"}
			found := Options{}.Find([]byte(tc.body), pageURL)
			ref := referenceFind(Options{}, []byte(tc.body), pageURL)
			got, want := urlStrings(found.Resources), urlStrings(ref.Resources)
			if !slices.Equal(got, want) {
				t.Errorf("got %q, the tokenizer's reading gives %q", got, want)
			}
			if urlString(found.Refresh) != urlString(ref.Refresh) {
				t.Errorf("refresh %v, the tokenizer's reading gives %v", found.Refresh, ref.Refresh)
			}
		})
	}
}

// Text between tags is skipped, not copied: a page allocates the same whatever its length of
// text, and a page that names no resource allocates nothing.
func TestResourcesAllocations(t *testing.T) {
	pageURL := &url.URL{Scheme: "http", Host: "h", Path: "/"}
	text := strings.Repeat("<p class=x>Some text of the page, <b>bold</b> and <a href=/y>linked</a>.</p>\n", 1000)
	head := `<html><head><link rel=stylesheet href=/s.css><script src=/a.js></script></head><body><img src=/i.png>`
	cases := []struct {
		name string
		body string
		want float64
	}{
		{"no resources", `<html><body>` + text + `</body></html>`, 0},
		{"short page", head + `</body></html>`, -1},
		{"long page", head + text + `</body></html>`, -1},
	}
	var short float64
	for _, tc := range cases {
		body := []byte(tc.body)
		got := testing.AllocsPerRun(20, func() { Resources(body, pageURL) })
		switch {
		case tc.name == "short page":
			short = got
		case tc.want >= 0 && got != tc.want:
			t.Errorf("%s: %v allocations, want %v", tc.name, got, tc.want)
		case tc.want < 0 && got != short:
			t.Errorf("%s: %v allocations, the same page without its %d bytes of text %v", tc.name, got, len(text), short)
		}
	}
}
