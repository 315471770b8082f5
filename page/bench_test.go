package page

import (
	"bytes"
	"net/url"
	"os"
	"testing"
)

// BenchmarkResources scans two pages. MB/s is page bytes scanned per second.
//   - shop: a realistic 50 KB shop category page: a head with style sheets, fonts, icons and
//     inline CSS, and a grid of product cards with srcset images and star icons.
//   - text: 31 KB of paragraphs naming no resource, an article or a load tester's test page:
//     the speed of skipping text.
func BenchmarkResources(b *testing.B) {
	shop, err := os.ReadFile("testdata/shop.html")
	if err != nil {
		b.Fatalf("read page: %v", err)
	}
	pageURL, err := url.Parse(shopURL)
	if err != nil {
		b.Fatalf("parse page URL: %v", err)
	}
	text := append([]byte(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page</title></head><body>`),
		bytes.Repeat([]byte("<p>Page 1: lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.</p>\n"), 300)...)
	text = append(text, "</body></html>"...)
	pages := []struct {
		name      string
		body      []byte
		resources bool
	}{
		{"shop", shop, true},
		{"text", text, false},
	}
	for _, p := range pages {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(p.body)))
			b.ReportAllocs()
			for b.Loop() {
				if got := Resources(p.body, pageURL); (len(got) > 0) != p.resources {
					b.Fatalf("%d resources found", len(got))
				}
			}
		})
	}
}
