package page

import (
	"flag"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/webload/webload/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/shop.golden")

// shopURL is where testdata/shop.html is served in the golden test and the benchmark.
const shopURL = "https://shop.example/c/outdoor/tents?page=2"

// TestResourcesShopGolden checks the resources of a whole shop category page against
// testdata/shop.golden, one URL a line. The page mixes what the table tests check one at a time:
// preloads, alternate style sheets, inline CSS with @import, modules, JSON-LD and inline
// scripts, noscript pixels, pictures, a product grid with srcset, repeated star icons and
// lazy-loading placeholders, a video, an iframe, a template and off-host scripts.
func TestResourcesShopGolden(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile("testdata/shop.html")
	if err != nil {
		t.Fatalf("read page: %v", err)
	}
	pageURL, err := url.Parse(shopURL)
	if err != nil {
		t.Fatalf("parse page URL: %v", err)
	}
	got := strings.Join(urlStrings(Resources(body, pageURL)), "\n") + "\n"
	golden.Check(t, "testdata/shop.golden", []byte(got), *update)
}
