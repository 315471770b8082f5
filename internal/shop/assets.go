package shop

import (
	"strconv"
	"strings"
	"sync"
)

// asset is a static file of the shop: served at once, like files from a web server's disk.
type asset struct {
	contentType string
	body        []byte
}

// productImages is how many distinct product images the shop has; pages share them, so a
// visitor's cache saves requests as a browser's does.
const productImages = 24

// assets are the shop's stylesheet, script, icon and product images, by path. They are made
// at the shop's first request, not when the program starts: every webload command links this
// package, and only the demo serves them.
var assets = sync.OnceValue(func() map[string]asset {
	m := map[string]asset{
		"/static/shop.css":    {"text/css", filler("/* shop styles */\n", "body{font:16px/1.5 sans-serif;margin:0 auto;max-width:60em}\n", 9<<10)},
		"/static/shop.js":     {"text/javascript", filler("// shop script\n", "document.querySelectorAll('img').forEach(function(i){i.loading='lazy'});\n", 24<<10)},
		"/static/favicon.ico": {"image/x-icon", filler("", "\x00", 1150)},
	}
	for i := range productImages {
		m[imagePath(i)] = asset{"image/jpeg", filler("\xff\xd8\xff\xe0", "\x2a", 10<<10+i*1531)}
	}
	return m
})

func imagePath(i int) string { return "/img/" + strconv.Itoa(i) + ".jpg" }

// images lists the product images on page i of the catalogue: listings and search show four,
// a product page one, the rest none.
func images(i int) []string {
	n := 1
	switch {
	case i < 3:
		n = 4
	case i < 6:
		n = 0
	case i < 14:
		n = 4
	}
	out := make([]string, n)
	for k := range out {
		out[k] = imagePath((i*5 + k) % productImages)
	}
	return out
}

// filler is head followed by unit repeated up to size bytes.
func filler(head, unit string, size int) []byte {
	return []byte(head + strings.Repeat(unit, max(size-len(head), 0)/len(unit)))
}
