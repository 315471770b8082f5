package page

import (
	"net/url"
	"slices"
	"testing"
)

// A browser on a 1x display fetches one candidate of each image, and no image marked
// loading=lazy until it scrolls near it; Resources does the same by default.
func TestResourcesPickOneCandidate(t *testing.T) {
	t.Parallel()
	runResourceCases(t, "http://h.example/", []resourceCase{
		{"1x candidate over src", `<img src=a.png srcset="b.png 1x, c.png 2x">`, []string{"http://h.example/b.png"}},
		{"src when srcset has no 1x", `<img src=a.png srcset="b.png 1.5x, c.png 2x">`, []string{"http://h.example/a.png"}},
		{"candidate without descriptor is 1x", `<img srcset="b.png 2x, c.png">`, []string{"http://h.example/c.png"}},
		{"smallest density above 1 without src", `<img srcset="c.png 3x, b.png 2x, d.png 0.5x">`, []string{"http://h.example/b.png"}},
		{"largest density when all are below 1", `<img srcset="c.png 0.25x, b.png 0.5x">`, []string{"http://h.example/b.png"}},
		{"smallest width at least the viewport", `<img src=s.jpg srcset="a-480.jpg 480w, a-1600.jpg 1600w, a-1280.jpg 1280w, a-2400.jpg 2400w">`,
			[]string{"http://h.example/a-1280.jpg"}},
		{"widest when all are narrower than the viewport", `<img srcset="a-480.jpg 480w, a-800.jpg 800w">`, []string{"http://h.example/a-800.jpg"}},
		{"MediaWiki thumbnail", `<img src="/t/120px-A.jpg" srcset="/t/180px-A.jpg 1.5x, /t/240px-A.jpg 2x">`,
			[]string{"http://h.example/t/120px-A.jpg"}},
		{"unknown descriptor counts as 1x", `<img srcset="a.png (x, y), b.png 2x">`, []string{"http://h.example/a.png"}},
		{"src without srcset", `<img src=a.png srcset="">`, []string{"http://h.example/a.png"}},
		{"picture takes the first source of an accepted type", `<picture><source type="image/jxl" srcset=a.jxl>` +
			`<source type="Image/AVIF" srcset="a.avif 1x, a2.avif 2x"><source srcset=a.webp><img src=a.jpg></picture>`,
			[]string{"http://h.example/a.avif"}},
		{"picture with a type parameter", `<picture><source type="image/webp; q=1" srcset=a.webp><img src=a.jpg></picture>`,
			[]string{"http://h.example/a.webp"}},
		{"picture falls back to its img", `<picture><source type="image/jxl" srcset=a.jxl><img src=a.jpg srcset="a1.jpg 1x"></picture>`,
			[]string{"http://h.example/a1.jpg"}},
		{"picture source src is not a candidate", `<picture><source src=a.png><img src=a.jpg></picture>`,
			[]string{"http://h.example/a.jpg"}},
		{"img after the picture's own is an image of its own", `<picture><source srcset=a.webp><img src=a.jpg><img src=b.jpg></picture>`,
			[]string{"http://h.example/a.webp", "http://h.example/b.jpg"}},
		{"image preload picks one", `<link rel=preload as=image href=i.jpg imagesrcset="i-800.jpg 800w, i-1600.jpg 1600w">`,
			[]string{"http://h.example/i-1600.jpg"}},
		{"lazy img skipped", `<img src=a.png loading=lazy><img src=b.png loading=eager><img src=c.png loading=" LAZY ">`,
			[]string{"http://h.example/b.png"}},
		{"lazy img makes its picture lazy", `<picture><source srcset=a.webp><img src=a.jpg loading=lazy></picture><img src=b.png>`,
			[]string{"http://h.example/b.png"}},
		{"lazy applies to images only", `<script src=a.js loading=lazy></script><video poster=p.jpg loading=lazy></video>`,
			[]string{"http://h.example/a.js", "http://h.example/p.jpg"}},
	})
}

// With LazyImages, images marked loading=lazy are fetched as if the page were scrolled through.
func TestResourcesLazyImages(t *testing.T) {
	t.Parallel()
	pageURL := &url.URL{Scheme: "http", Host: "h.example", Path: "/"}
	body := []byte(`<img src=a.png loading=lazy srcset="a2.png 2x"><picture><source srcset=b.webp><img src=b.jpg loading=lazy></picture><img src=c.png>`)
	tests := []struct {
		name string
		opt  Options
		want []string
	}{
		{"default", Options{}, []string{"http://h.example/c.png"}},
		{"lazy images", Options{LazyImages: true}, []string{"http://h.example/a.png", "http://h.example/b.webp", "http://h.example/c.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := urlStrings(tt.opt.Resources(body, pageURL)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// A picture's <source media> is matched against a screen ViewportWidth wide: width queries in
// px or em are evaluated, print-only sources skipped, and what cannot be evaluated matches.
func TestResourcesPictureMedia(t *testing.T) {
	t.Parallel()
	pic := func(media string) string {
		return `<picture><source media="` + media + `" srcset=m.webp><source srcset=d.webp><img src=a.jpg></picture>`
	}
	chosen, fallback := []string{"http://h.example/m.webp"}, []string{"http://h.example/d.webp"}
	runResourceCases(t, "http://h.example/", []resourceCase{
		{"narrow screens only", pic("(max-width: 799px)"), fallback},
		{"wide screens", pic("(min-width: 800px)"), chosen},
		{"wider than the viewport", pic("screen and (min-width: 1440px)"), fallback},
		{"em units", pic("(min-width: 50em)"), chosen},
		{"one query of a list matches", pic("(max-width: 400px), (min-width: 1000px)"), chosen},
		{"both bounds", pic("(min-width: 600px) and (max-width: 1023px)"), fallback},
		{"print only", pic("print"), fallback},
		{"cannot be evaluated", pic("(prefers-color-scheme: dark)"), chosen},
		{"negation is not evaluated", pic("not all and (max-width: 600px)"), chosen},
		{"spaces inside the condition", pic("only screen and ( max-width : 600px )"), fallback},
		{"upper case", pic("(MAX-WIDTH: 600PX)"), fallback},
	})
}
