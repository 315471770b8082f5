package page

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// FuzzResources feeds arbitrary bytes and page URLs to Resources: it must not panic, and every
// URL it returns must be absolute http or https with a host, without a fragment, and returned
// once.
//
// The seeds are small on purpose: the fuzzer minimizes every new interesting input for up to a
// minute, and inputs grown from the 50 KB shop page stall it for that long each time.
func FuzzResources(f *testing.F) {
	f.Add([]byte(miniShop), shopURL)
	f.Add([]byte(`<base href="../b/"><img src="a.png" srcset="a.png 1x, b,c.png 2x"><link rel="shortcut icon" href=/i>`), "http://h/x/y")
	f.Add([]byte(`<style>@import "a.css"; .x{background:url( 'b\62.png' )}</style><div style="background:url(c.png)">`), "https://h/")
	f.Add([]byte(`<picture><source media="screen and ( min-width:50em ), print" type="image/webp;q=1" srcset="a.webp 800w"><img loading=lazy src=a.jpg></picture>`), "http://h/")
	f.Add([]byte(`<picture><source srcset="a.webp (x,y) 1x,,b.webp"><img src="//cdn/x#f"></picture><template><img src=t></template>`), "http://h")
	f.Add([]byte("<img src=\"\\\\h\\a\n.png\"><video/><source src=v><input type=IMAGE src=data:x>"), "")
	f.Fuzz(func(t *testing.T, body []byte, page string) {
		pageURL, err := url.Parse(page)
		if err != nil {
			pageURL = nil
		}
		seen := make(map[string]bool)
		for _, u := range Resources(body, pageURL) {
			s := u.String()
			if u.Scheme != "http" && u.Scheme != "https" {
				t.Errorf("%q: scheme is not http or https", s)
			}
			if u.Host == "" || u.Opaque != "" {
				t.Errorf("%q: no host", s)
			}
			if u.Fragment != "" || u.RawFragment != "" || strings.Contains(s, "#") {
				t.Errorf("%q: has a fragment", s)
			}
			if seen[s] {
				t.Errorf("%q: returned twice", s)
			}
			seen[s] = true
		}
	})
}

// miniShop is a shop page in brief: the kinds of markup of testdata/shop.html in 1 KB.
const miniShop = `<!DOCTYPE html><html><head><title>Tents &amp; more</title>
<link rel="preload" href="/f.woff2" as="font" crossorigin><link rel=stylesheet href="/main.css">
<link rel="alternate stylesheet" href="/hc.css"><link rel="shortcut icon" href="/favicon.ico">
<style>@import url("/reset.css"); @import '/grid.css' screen; /* url(/no.png) */
.hero{background:url( "//cdn.example/hero.png" )} .x{content:"url(no.png)"} .s{background:URL(../s.svg#i)}</style>
<script src="/vendor.js" defer></script><script>var t = '<img src="/no.png">';</script>
<noscript><img src="/pixel.gif"></noscript></head>
<body style="background:url('/bg.jpg')"><picture><source type="image/avif" srcset="/h-800.avif 800w, /h-1600.avif 1600w">
<img src="/h.jpg" srcset="/h.jpg 1x,/h@2x.jpg 2x" alt=""></picture>
<ul><li><img src="https://cdn.example/p/1-400.jpg" srcset="https://cdn.example/p/1-400.jpg 1x, https://cdn.example/p/1-800.jpg 2x" loading=lazy>
<img src=/star.svg><img src=/star.svg><span style="background-image: url(/badge.png)">New</span>
<li><img data-src="/lazy.jpg" src="data:image/gif;base64,R0lGODlh"></ul>
<video poster=/poster.jpg><source src=/v.webm></video><iframe src="/frame.html"></iframe>
<template><img src="/t.jpg"></template><input type=image src=/go.svg><embed src=/e.svg>
<a href="mailto:x@shop.example">mail</a><img src="https://stats.example/c?a=1&amp;b=2#x"></body></html>`

// Resources must stay linear on inputs built to make a careless scanner rescan: each is 1 MiB,
// so a quadratic step would run for hours rather than milliseconds.
func TestResourcesAdversarialInputsFinish(t *testing.T) {
	t.Parallel()
	const size = 1 << 20
	repeat := func(s string) []byte { return bytes.Repeat([]byte(s), size/len(s)) }
	// tag wraps a long attribute value in a tag that ends, so that the tokenizer reports it.
	tag := func(open, value, end string) []byte {
		return append(append([]byte(open), repeat(value)...), end...)
	}
	tests := []struct {
		name string
		body []byte
	}{
		{"open angle brackets", repeat("<")},
		{"unclosed tag", append([]byte("<img src="), repeat("a")...)},
		{"long URL", tag("<img src=", "a", ">")},
		{"many attributes", tag("<img ", "a=b ", ">")},
		{"srcset of commas and parentheses", tag(`<img srcset="a (`, ",( ", `">`)},
		{"srcset of candidates", tag(`<img srcset="`, "a 1x,", `">`)},
		{"srcset of distinct candidates", append(append([]byte(`<img srcset="`), distinctImages(size)...), `">`...)},
		{"style of open urls", append([]byte("<style>"), repeat("url(")...)},
		{"style of open comments and strings", append([]byte("<style>"), repeat(`/"'\`)...)},
		{"style of imports", append([]byte("<style>"), repeat("@import ")...)},
		{"style attribute of bad urls", tag(`<div style='`, `url(a"`, `'>`)},
		{"style attribute of escapes", tag(`<div style="background:url(`, `\\`, `)">`)},
		{"distinct images", distinctImages(size)},
		{"nested media", repeat("<picture><video><audio>")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			Resources(tt.body, &url.URL{Scheme: "http", Host: "h", Path: "/"})
			// Generous for the race detector on a slow machine; a quadratic scan needs hours.
			if d := time.Since(start); d > time.Minute {
				t.Errorf("took %v for %d bytes", d, len(tt.body))
			}
		})
	}
}

// distinctImages returns about size bytes of img tags that all name different URLs.
func distinctImages(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<img src=/i/%d.png>", i)
	}
	return b.Bytes()
}
