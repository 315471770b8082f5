package page

import (
	"net/url"
	"slices"
	"testing"
)

// testPage is the page URL of the table tests unless a case names another.
const testPage = "http://h.example/dir/page.html"

// resourceCase is one page and the URLs Resources must return for it, in order.
type resourceCase struct {
	name string
	html string
	want []string
}

// runResourceCases runs Resources on every case, served at page, and compares the URLs as
// strings. An empty page means a nil pageURL.
func runResourceCases(t *testing.T, page string, tests []resourceCase) {
	t.Helper()
	var pageURL *url.URL
	if page != "" {
		var err error
		if pageURL, err = url.Parse(page); err != nil {
			t.Fatalf("parse page URL: %v", err)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := urlStrings(Resources([]byte(tt.html), pageURL))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Resources(%q)\n got %q\nwant %q", tt.html, got, tt.want)
			}
		})
	}
}

func urlStrings(us []*url.URL) []string {
	var s []string
	for _, u := range us {
		s = append(s, u.String())
	}
	return s
}

func TestResourcesAttributeValues(t *testing.T) {
	t.Parallel()
	runResourceCases(t, testPage, []resourceCase{
		{"double quotes", `<img src="a.png">`, []string{"http://h.example/dir/a.png"}},
		{"single quotes", `<img src='a.png'>`, []string{"http://h.example/dir/a.png"}},
		{"unquoted", `<img src=a.png alt=x>`, []string{"http://h.example/dir/a.png"}},
		{"unquoted keeps a trailing slash as browsers do", `<img src=a/>`, []string{"http://h.example/dir/a/"}},
		{"quotes of the other kind inside", `<img src='a"b.png'><img src="c'd.png">`,
			[]string{"http://h.example/dir/a%22b.png", "http://h.example/dir/c'd.png"}},
		{"entities decoded", `<img src="i.php?w=1&amp;h=2&#38;q=x">`, []string{"http://h.example/dir/i.php?w=1&h=2&q=x"}},
		{"whitespace trimmed", "<img src=\" \n\ta.png \f\r\n\">", []string{"http://h.example/dir/a.png"}},
		{"tabs and newlines inside removed", "<img src=\"a\n.p\tng\">", []string{"http://h.example/dir/a.png"}},
		{"space inside escaped", `<img src="my photo.png">`, []string{"http://h.example/dir/my%20photo.png"}},
		{"backslashes are slashes before the query", `<img src="\\cdn.example\a.png?x=\">`,
			[]string{`http://cdn.example/a.png?x=\`}},
		{"non-ASCII escaped", `<img src="café.png">`, []string{"http://h.example/dir/caf%C3%A9.png"}},
		{"uppercase tag and attribute names", `<IMG SRC="a.png"><Script SRC=b.js></Script>`,
			[]string{"http://h.example/dir/a.png", "http://h.example/dir/b.js"}},
		{"first of repeated attributes wins", `<img src=a.png src=b.png>`, []string{"http://h.example/dir/a.png"}},
	})
}

func TestResourcesResolution(t *testing.T) {
	t.Parallel()
	runResourceCases(t, "https://h.example/shop/cat/page.html?sort=price#top", []resourceCase{
		{"same folder", `<img src="x.png">`, []string{"https://h.example/shop/cat/x.png"}},
		{"dot slash", `<img src="./x.png">`, []string{"https://h.example/shop/cat/x.png"}},
		{"parent folder", `<img src="../x.png">`, []string{"https://h.example/shop/x.png"}},
		{"above the root stays at the root", `<img src="../../../../x.png">`, []string{"https://h.example/x.png"}},
		{"root relative", `<img src="/x.png">`, []string{"https://h.example/x.png"}},
		{"scheme relative", `<img src="//cdn.example/x.png">`, []string{"https://cdn.example/x.png"}},
		{"query only keeps the path", `<img src="?q=1">`, []string{"https://h.example/shop/cat/page.html?q=1"}},
		{"absolute other scheme and host kept", `<script src="http://other.example:8080/x.js"></script>`,
			[]string{"http://other.example:8080/x.js"}},
		{"uppercase scheme", `<img src="HTTPS://CDN.example/x.png">`, []string{"https://CDN.example/x.png"}},
		{"fragment stripped", `<img src="icons.svg#cart">`, []string{"https://h.example/shop/cat/icons.svg"}},
		{"fragment only is the page without its fragment", `<img src="#x">`,
			[]string{"https://h.example/shop/cat/page.html?sort=price"}},
		{"duplicates removed after resolving", `<img src="x.png"><img src="./x.png"><img src="/shop/cat/x.png#a">` +
			`<img src="https://h.example/shop/cat/x.png"><img src="x.png">`, []string{"https://h.example/shop/cat/x.png"}},
		{"document order", `<script src=3.js></script><img src=1.png><img src=2.png><img src=1.png>`,
			[]string{"https://h.example/shop/cat/3.js", "https://h.example/shop/cat/1.png", "https://h.example/shop/cat/2.png"}},
	})
}

func TestResourcesWithoutPageURL(t *testing.T) {
	t.Parallel()
	runResourceCases(t, "", []resourceCase{
		{"absolute kept", `<img src="https://h.example/a.png">`, []string{"https://h.example/a.png"}},
		{"relative dropped", `<img src="a.png"><img src="/b.png"><img src="//h.example/c.png">`, nil},
		{"relative base cannot resolve", `<base href="/x/"><img src="a.png">`, nil},
		{"absolute base resolves", `<base href="https://h.example/x/"><img src="a.png">`,
			[]string{"https://h.example/x/a.png"}},
	})
}

func TestResourcesBase(t *testing.T) {
	t.Parallel()
	runResourceCases(t, testPage, []resourceCase{
		{"absolute base", `<base href="https://cdn.example/v2/"><img src="a.png"><img src="/b.png">`,
			[]string{"https://cdn.example/v2/a.png", "https://cdn.example/b.png"}},
		{"relative base resolved against the page", `<base href="../static/"><img src="a.png">`,
			[]string{"http://h.example/static/a.png"}},
		{"only the first base counts", `<base href="/one/"><base href="/two/"><img src="a.png">`,
			[]string{"http://h.example/one/a.png"}},
		{"a base without href does not count", `<base target="_blank"><base href="/two/"><img src="a.png">`,
			[]string{"http://h.example/two/a.png"}},
		{"an empty href counts and is the page", `<base href=""><base href="/two/"><img src="a.png">`,
			[]string{"http://h.example/dir/a.png"}},
		{"javascript base falls back to the page", `<base href="javascript:x"><base href="/two/"><img src="a.png">`,
			[]string{"http://h.example/dir/a.png"}},
		{"base of another scheme leaves nothing relative to fetch",
			`<base href="ftp://files.example/"><img src="a.png"><img src="http://h.example/b.png">`,
			[]string{"http://h.example/b.png"}},
		{"unparsable base falls back to the page", `<base href="http://[::1"><img src="a.png">`,
			[]string{"http://h.example/dir/a.png"}},
		{"base applies from where it is read", `<img src="a.png"><base href="/b/"><img src="a.png">`,
			[]string{"http://h.example/dir/a.png", "http://h.example/b/a.png"}},
		{"uppercase base", `<BASE HREF="/B/"><img src="a.png">`, []string{"http://h.example/B/a.png"}},
		{"base in a template does not count", `<template><base href="/t/"></template><img src="a.png">`,
			[]string{"http://h.example/dir/a.png"}},
	})
}

func TestResourcesSkipped(t *testing.T) {
	t.Parallel()
	runResourceCases(t, testPage, []resourceCase{
		{"data URL", `<img src="data:image/png;base64,iVBORw0KGgo=">`, nil},
		{"uppercase data URL", `<img src="DATA:image/gif,x">`, nil},
		{"javascript URL", `<script src="javascript:void(0)"></script>`, nil},
		{"mailto, about, blob, ftp", `<img src="mailto:a@b"><img src="about:blank">` +
			`<img src="blob:http://h.example/1"><img src="ftp://h.example/a.png">`, nil},
		{"empty and blank values", `<img src=""><img src="   "><img src><script src=></script>`, nil},
		{"unparsable URLs", `<img src="a%zz.png"><img src="http://[::1/a.png"><img src="http://h.example:port/">`, nil},
		{"opaque http URL", `<img src="http:a.png">`, nil},
		{"links to pages", `<a href="/other.html">x</a><form action="/f"></form><area href="/m">`, nil},
		{"iframes and frames are pages", `<iframe src="/frame.html"></iframe><frame src="/f.html">`, nil},
		{"lazy-loading data attributes", `<img data-src="/lazy.png" data-srcset="/lazy-2x.png 2x">`, nil},
		{"input that is not an image", `<input type=text src=/a.png><input src=/b.png>`, nil},
		{"source outside picture, video or audio", `<div><source src=/a.mp4 srcset=/b.png></div>`, nil},
		{"source after its picture closed", `<picture></picture><source srcset=/a.png>`, nil},
		{"template content is inert", `<template><img src=/a.png><style>a{b:url(/c.png)}</style></template>`, nil},
		{"noscript content is not parsed", `<noscript><img src="/pixel.gif"></noscript>`, nil},
		{"script text", `<script>var s = '<img src="/a.png">'; document.write("<script src=/b.js>")</script>`, nil},
		{"comments", `<!-- <img src="/a.png"> --><!--[if IE]><script src="/ie.js"></script><![endif]-->`, nil},
		{"textarea and title text", `<title><img src=/a.png></title><textarea><img src=/b.png></textarea>`, nil},
		{"style attribute without url", `<div style="color: red; background: none">`, nil},
	})
}

func TestResourcesElements(t *testing.T) {
	t.Parallel()
	runResourceCases(t, "http://h.example/", []resourceCase{
		{"img src over a 2x candidate", `<img srcset="b.png 2x" src="a.png">`, []string{"http://h.example/a.png"}},
		{"script", `<script src="app.js" defer></script><script type=module src=m.mjs></script>`,
			[]string{"http://h.example/app.js", "http://h.example/m.mjs"}},
		{"input type image in any case", `<input type=image src=go.png><input TYPE=IMAGE src=go2.png>`,
			[]string{"http://h.example/go.png", "http://h.example/go2.png"}},
		{"video poster, src and sources", `<video poster=p.jpg src=v.mp4><source src=v.webm><track src=t.vtt></video>`,
			[]string{"http://h.example/p.jpg", "http://h.example/v.mp4", "http://h.example/v.webm"}},
		{"audio src and source", `<audio src=a.mp3><source src=a.ogg></audio>`,
			[]string{"http://h.example/a.mp3", "http://h.example/a.ogg"}},
		{"picture takes its first source", `<picture><source srcset="a.avif" type="image/avif"><source srcset="a.webp 1x, a2.webp 2x"><img src="a.jpg"></picture>`,
			[]string{"http://h.example/a.avif"}},
		{"nested media", `<picture><video><source src=v.mp4></video><source srcset=p.png><img src=p.jpg></picture>`,
			[]string{"http://h.example/v.mp4", "http://h.example/p.png"}},
		{"self-closing video still opens it", `<video/><source src=v.mp4></video>`, []string{"http://h.example/v.mp4"}},
		{"embed and object", `<embed src=e.svg><object data=o.svg></object>`,
			[]string{"http://h.example/e.svg", "http://h.example/o.svg"}},
		{"style attribute on any element", `<div style="background:url(d.png)"><my-widget style="--bg: url(w.png)">`,
			[]string{"http://h.example/d.png", "http://h.example/w.png"}},
		{"style attribute after the element's own URL", `<img style="background:url(s.png)" src=i.png>`,
			[]string{"http://h.example/i.png", "http://h.example/s.png"}},
		{"content after the template closes", `<template><img src=t.png></template><img src=a.png>`,
			[]string{"http://h.example/a.png"}},
	})
}

func TestResourcesLinkRel(t *testing.T) {
	t.Parallel()
	runResourceCases(t, "http://h.example/", []resourceCase{
		{"stylesheet", `<link rel=stylesheet href=a.css>`, []string{"http://h.example/a.css"}},
		{"stylesheet in any case with extra space", `<LINK REL="  StyleSheet	" HREF="a.css">`, []string{"http://h.example/a.css"}},
		{"stylesheet for print", `<link rel=stylesheet media=print href=p.css>`, []string{"http://h.example/p.css"}},
		{"alternate stylesheet either order", `<link rel="stylesheet alternate" href=a.css><link rel="alternate stylesheet" href=b.css>`, nil},
		{"icon", `<link rel=icon href=i.png>`, []string{"http://h.example/i.png"}},
		{"shortcut icon", `<link rel="shortcut icon" href=/favicon.ico>`, []string{"http://h.example/favicon.ico"}},
		{"apple touch icons", `<link rel=apple-touch-icon href=t.png><link rel=apple-touch-icon-precomposed href=tp.png>`,
			[]string{"http://h.example/t.png", "http://h.example/tp.png"}},
		{"preload of page resources", `<link rel=preload as=style href=s.css><link rel=preload as=script href=s.js>` +
			`<link rel=preload as=FONT href=f.woff2 crossorigin><link rel=preload as=image href=i.jpg>`,
			[]string{"http://h.example/s.css", "http://h.example/s.js", "http://h.example/f.woff2", "http://h.example/i.jpg"}},
		{"preload as image with imagesrcset", `<link rel=preload as=image imagesrcset="i-1.jpg 1x, i-2.jpg 2x">`,
			[]string{"http://h.example/i-1.jpg"}},
		{"imagesrcset without image preload", `<link rel=preload as=style imagesrcset="i.jpg 1x" href=s.css>`,
			[]string{"http://h.example/s.css"}},
		{"preload of other kinds", `<link rel=preload as=fetch href=d.json><link rel=preload href=x><link rel=preload as=document href=p.html>`, nil},
		{"modulepreload", `<link rel=modulepreload href=m.mjs>`, []string{"http://h.example/m.mjs"}},
		{"hints and page links", `<link rel=prefetch href=p.js><link rel=preconnect href=//cdn.example>` +
			`<link rel=dns-prefetch href=//x.example><link rel=canonical href=/c><link rel=manifest href=m.json>` +
			`<link rel=alternate href=/feed.xml><link href=norel.css>`, nil},
		{"stylesheet without href", `<link rel=stylesheet>`, nil},
	})
}

func TestResourcesMalformedHTML(t *testing.T) {
	t.Parallel()
	runResourceCases(t, "http://h.example/", []resourceCase{
		{"unclosed elements", `<div><p><img src=a.png><ul><li><img src=b.png>`,
			[]string{"http://h.example/a.png", "http://h.example/b.png"}},
		{"attributes without values", `<img hidden src=a.png decoding><script async src=b.js defer>`,
			[]string{"http://h.example/a.png", "http://h.example/b.js"}},
		{"attribute name without value is not a URL", `<img src alt="x.png">`, nil},
		{"tag cut off at the end is dropped", `<img src=a.png><img src="b.png"`, []string{"http://h.example/a.png"}},
		{"unterminated quote swallows the rest", `<img src="a.png><img src=b.png>`, nil},
		{"stray angle brackets", `<<img src=a.png>> <3 </>`, []string{"http://h.example/a.png"}},
		{"slash between attributes", `<img/src=a.png/alt=x>`, []string{"http://h.example/a.png/alt=x"}},
		{"end tags with attributes", `</img src=a.png><img src=b.png>`, []string{"http://h.example/b.png"}},
		{"unclosed style runs to the end", `<style>a{background:url(a.png)}`, []string{"http://h.example/a.png"}},
		{"stray end tags do not underflow", `</picture></video></template><source src=a.mp4><img src=b.png>`,
			[]string{"http://h.example/b.png"}},
		{"empty document", ``, nil},
		{"NUL bytes", "<img src=\"a\x00.png\"><im\x00g src=b.png>", []string{"http://h.example/a%EF%BF%BD.png"}},
	})
}

// TestSrcsetCandidates pins the srcset grammar: which URLs and descriptors a value holds.
// Which candidate is fetched is TestResourcesPickOneCandidate's.
func TestSrcsetCandidates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, srcset string
		want         []string // URL and descriptors, joined by "|"
	}{
		{"one candidate without descriptor", `a.png`, []string{"a.png|"}},
		{"density descriptors", `a.png 1x, a@2x.png 2x, a@3x.png 2.5x`, []string{"a.png| 1x", "a@2x.png| 2x", "a@3x.png| 2.5x"}},
		{"width descriptors", `a-480.jpg 480w,a-800.jpg   800w ,  a-1200.jpg 1200w`,
			[]string{"a-480.jpg| 480w", "a-800.jpg|   800w ", "a-1200.jpg| 1200w"}},
		{"width and height descriptors", `a.jpg 480w 320h, b.jpg 800w 600h`, []string{"a.jpg| 480w 320h", "b.jpg| 800w 600h"}},
		{"comma inside a URL", `img.php?size=1,2 1x, https://cdn.example/i,w_800/b.jpg 2x`,
			[]string{"img.php?size=1,2| 1x", "https://cdn.example/i,w_800/b.jpg| 2x"}},
		{"commas without whitespace stay in the URL", `a.png,b.png`, []string{"a.png,b.png|"}},
		{"trailing commas end a candidate", `a.png,, b.png,`, []string{"a.png|", "b.png|"}},
		{"leading and doubled commas", ` , ,a.png 1x,,, b.png 2x`, []string{"a.png| 1x", "b.png| 2x"}},
		{"commas inside descriptor parentheses", `a.png (x, y) 1x, b.png`, []string{"a.png| (x, y) 1x", "b.png|"}},
		{"unclosed parenthesis swallows the rest", `a.png (x, b.png 2x`, []string{"a.png| (x, b.png 2x"}},
		{"newlines between candidates", "a.png 1x,\n  b.png 2x\n", []string{"a.png| 1x", "b.png| 2x\n"}},
		{"only separators", ` , , `, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for s := []byte(tt.srcset); ; {
				u, desc, rest, ok := nextSrcsetURL(s)
				if !ok {
					break
				}
				got = append(got, string(u)+"|"+string(desc))
				s = rest
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("candidates of %q: got %q, want %q", tt.srcset, got, tt.want)
			}
		})
	}
	runResourceCases(t, "http://h.example/", []resourceCase{
		{"data candidate is not fetched", `<img srcset="data:image/png;base64,AAAA 1x, b.png 2x">`, nil},
		{"src and srcset duplicates", `<img src=a.png srcset="a.png 1x, /a.png 2x">`, []string{"http://h.example/a.png"}},
	})
}

func TestResourcesCSS(t *testing.T) {
	t.Parallel()
	runResourceCases(t, "http://h.example/css/page.html", []resourceCase{
		{"inline url unquoted", `<div style="background:url(a.png)">`, []string{"http://h.example/css/a.png"}},
		{"inline url single quoted", `<div style="background:url('a.png')">`, []string{"http://h.example/css/a.png"}},
		{"inline url double quoted via entities", `<div style="background:url(&quot;a.png&quot;)">`,
			[]string{"http://h.example/css/a.png"}},
		{"inline url with spaces", `<div style="background: url(  a.png  ) no-repeat">`, []string{"http://h.example/css/a.png"}},
		{"uppercase URL function", `<div style="background:URL(a.png)">`, []string{"http://h.example/css/a.png"}},
		{"several urls in order", `<div style="background-image:url(a.png),url('b.png'), url( &quot;c.png&quot; )">`,
			[]string{"http://h.example/css/a.png", "http://h.example/css/b.png", "http://h.example/css/c.png"}},
		{"inline data url skipped", `<div style="background:url(data:image/svg+xml;utf8,<svg/>)">`, nil},
		{"other functions ending in url", `<div style="a:myurl(a.png); b: -x-url(b.png)">`, nil},
		{"inline import is not valid", `<div style="@import 'a.css'">`, nil},
		{"style element urls", `<style>.a{background:url(a.png)} .b{background:url("../b.png")}</style>`,
			[]string{"http://h.example/css/a.png", "http://h.example/b.png"}},
		{"import forms", `<style>@import "a.css"; @import 'b.css' screen; @import url(c.css); @IMPORT url("d.css") print;` +
			`@import /* why */ "e.css";</style>`, []string{"http://h.example/css/a.css", "http://h.example/css/b.css",
			"http://h.example/css/c.css", "http://h.example/css/d.css", "http://h.example/css/e.css"}},
		{"strings that are not imports", `<style>.a::after{content:"x.png"} @media print{.b{content:'y.css'}}</style>`, nil},
		{"url inside a comment or string", `<style>/* url(a.png) */ .x{content:"url(b.png)"} .y{background:url(c.png)}</style>`,
			[]string{"http://h.example/css/c.png"}},
		{"font face sources", `<style>@font-face{src:url(f.woff2) format("woff2"),url('f.woff') format("woff")}</style>`,
			[]string{"http://h.example/css/f.woff2", "http://h.example/css/f.woff"}},
		{"escapes decoded", `<style>.a{background:url(a\(1\).png)} .b{background:url("\62 .png")}</style>`,
			[]string{"http://h.example/css/a(1).png", "http://h.example/css/b.png"}},
		{"bad unquoted urls skipped", `<style>.a{background:url(a b.png)} .b{background:url(c"d.png)} .c{background:url(e.png)}</style>`,
			[]string{"http://h.example/css/e.png"}},
		{"entities are not decoded in style elements", `<style>.a{background:url(a.png?x=1&amp;y=2)}</style>`,
			[]string{"http://h.example/css/a.png?x=1&amp;y=2"}},
		{"fragment of an SVG sprite stripped", `<style>.i{background:url(sprite.svg#cart)}</style>`,
			[]string{"http://h.example/css/sprite.svg"}},
		{"self-closing style element is still a style element", `<style/>.a{background:url(a.png)}</style>`,
			[]string{"http://h.example/css/a.png"}},
		{"empty style element", `<style></style><img src=i.png>`, []string{"http://h.example/css/i.png"}},
	})
}
