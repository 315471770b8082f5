package page

import (
	"net/url"
	"os"
	"testing"
)

// BenchmarkResources scans a realistic 50 KB shop category page: a head with style sheets,
// fonts, icons and inline CSS, and a grid of product cards with srcset images and star icons.
// MB/s is page bytes scanned per second.
func BenchmarkResources(b *testing.B) {
	body, err := os.ReadFile("testdata/shop.html")
	if err != nil {
		b.Fatalf("read page: %v", err)
	}
	pageURL, err := url.Parse(shopURL)
	if err != nil {
		b.Fatalf("parse page URL: %v", err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if got := Resources(body, pageURL); len(got) == 0 {
			b.Fatal("no resources found")
		}
	}
}
