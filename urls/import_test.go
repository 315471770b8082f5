package urls

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const testBase = "http://127.0.0.1:8080"

// fixture is the path of a file in testdata/import.
func fixture(name string) string { return filepath.Join("testdata", "import", name) }

// get1 and friends build expected entries against testBase.
func getEntry(path string, n int64) Entry {
	return Entry{Method: "GET", URL: testBase + path, Count: n}
}

// entriesText prints entries one a line so failures show what differs.
func entriesText(es []Entry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s %s %d\n", e.Method, e.URL, e.Count)
	}
	return b.String()
}

func checkEntries(t *testing.T, got, want []Entry) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%s\nwant:\n%s", entriesText(got), entriesText(want))
	}
}

func TestImportFormats(t *testing.T) {
	t.Parallel()
	base := ImportOptions{Base: testBase}
	with := func(f func(*ImportOptions)) ImportOptions {
		o := base
		f(&o)
		return o
	}
	tests := []struct {
		name    string
		files   []string
		opt     ImportOptions
		want    []Entry
		format  string
		read    int64
		skipped map[string]int64
		total   int64
		bad     []string
	}{
		{
			name: "ga4 with totals, (other), app screen and a second table", files: []string{"ga4.csv"}, opt: base,
			want: []Entry{
				getEntry("/", 18250), getEntry("/catalog", 9600), getEntry("/product/42", 7400),
				getEntry("/cart", 4100), getEntry("/search?q=shoes", 2500),
			},
			format: "ga4", read: 8, total: 41850,
			skipped: map[string]int64{"total": 1, "aggregate": 1, "unreadable": 1},
			bad:     []string{`testdata/import/ga4.csv:19: not a URL or path: "MainActivity"`},
		},
		{
			name: "ua with quoted thousands and a totals row", files: []string{"ua.csv"}, opt: base,
			want: []Entry{
				getEntry("/", 12345), getEntry("/products/", 4321), getEntry("/about", 1002),
				getEntry("/products/?sort=price&sessionid=abc123", 987),
				getEntry("/contact?utm_source=news&utm_medium=email", 250),
				getEntry("/products/?sessionid=zzz&sort=price", 13),
			},
			format: "ua", read: 7, total: 18918, skipped: map[string]int64{"total": 1},
		},
		{
			name: "ua with drop-param merges after rewriting", files: []string{"ua.csv"},
			opt: with(func(o *ImportOptions) { o.DropParams = []string{"SessionID", "utm_*"} }),
			want: []Entry{
				getEntry("/", 12345), getEntry("/products/", 4321), getEntry("/about", 1002),
				getEntry("/products/?sort=price", 1000), getEntry("/contact", 250),
			},
			format: "ua", read: 7, total: 18918, skipped: map[string]int64{"total": 1},
		},
		{
			name: "ua with strip-query", files: []string{"ua.csv"},
			opt: with(func(o *ImportOptions) { o.StripQuery = true }),
			want: []Entry{
				getEntry("/", 12345), getEntry("/products/", 5321), getEntry("/about", 1002), getEntry("/contact", 250),
			},
			format: "ua", read: 7, total: 18918, skipped: map[string]int64{"total": 1},
		},
		{
			name: "yandex russian csv with BOM, CRLF, fragments and two hosts", files: []string{"yandex_ru.csv"}, opt: base,
			want: []Entry{
				getEntry("/", 8120), getEntry("/catalog/shoes", 3500), getEntry("/product/123", 1520),
				getEntry("/catalog/shoes?page=2", 1200), getEntry("/post/1", 1000),
			},
			format: "yandex", read: 7, total: 15340, skipped: map[string]int64{"total": 1},
		},
		{
			name: "yandex with --host drops the other site", files: []string{"yandex_ru.csv"},
			opt: with(func(o *ImportOptions) { o.Host = "SHOP.example.ru" }),
			want: []Entry{
				getEntry("/", 8120), getEntry("/catalog/shoes", 3500), getEntry("/product/123", 1520),
				getEntry("/catalog/shoes?page=2", 1200),
			},
			format: "yandex", read: 7, total: 14340, skipped: map[string]int64{"total": 1, "host": 1},
		},
		{
			name: "yandex without base keeps the production URLs", files: []string{"yandex_ru.csv"},
			opt: ImportOptions{Host: "shop.example.ru", Top: 2},
			want: []Entry{
				{Method: "GET", URL: "https://shop.example.ru/", Count: 8120},
				{Method: "GET", URL: "https://shop.example.ru/catalog/shoes", Count: 3500},
			},
			format: "yandex", read: 7, total: 14340, skipped: map[string]int64{"total": 1, "host": 1, "beyond --top": 3},
		},
		{
			name: "yandex tsv prefers pageviews, no-break space thousands", files: []string{"yandex_ru.tsv"}, opt: base,
			want:   []Entry{getEntry("/", 3500), getEntry("/news", 2000), getEntry("/contacts", 1500)},
			format: "yandex", read: 4, total: 7000, skipped: map[string]int64{"total": 1},
		},
		{
			name: "yandex english, semicolons, dot thousands", files: []string{"yandex_en.csv"}, opt: base,
			want:   []Entry{getEntry("/", 1000), getEntry("/pricing", 234)},
			format: "yandex", read: 3, total: 1234, skipped: map[string]int64{"total": 1},
		},
		{
			name: "matomo flat export prefers url and nb_hits", files: []string{"matomo.csv"}, opt: base,
			want: []Entry{
				getEntry("/", 1040), getEntry("/shop/product-a", 530), getEntry("/shop/product-b?color=red", 260),
				getEntry("/blog/hello-world", 170),
			},
			format: "matomo", read: 5, total: 2000, skipped: map[string]int64{"aggregate": 1},
		},
		{
			name: "matomo labels become paths", files: []string{"matomo_labels.csv"}, opt: base,
			want:   []Entry{getEntry("/", 300), getEntry("/shop/product", 120), getEntry("/shop/", 80), getEntry("/about", 40)},
			format: "matomo", read: 4, total: 540, skipped: map[string]int64{},
		},
		{
			name: "generic csv with named columns", files: []string{"generic.csv"},
			opt:    with(func(o *ImportOptions) { o.Format = "csv"; o.URLColumn = "Path"; o.CountColumn = "HITS" }),
			want:   []Entry{getEntry("/api/items", 1500), getEntry("/api/items/7", 300)},
			format: "csv", read: 4, total: 1800, skipped: map[string]int64{"zero count": 1, "unreadable": 1},
			bad: []string{`testdata/import/generic.csv:5: bad count: "lots" is not a number`},
		},
		{
			name: "generic csv detected from --url-column, each row once", files: []string{"generic.csv"},
			opt:    with(func(o *ImportOptions) { o.URLColumn = "path" }),
			want:   []Entry{getEntry("/api/items", 1), getEntry("/api/items/7", 1), getEntry("/api/orders", 1), getEntry("/health", 1)},
			format: "csv", read: 4, total: 4, skipped: map[string]int64{},
		},
		{
			name: "base with a path prefixes every URL", files: []string{"yandex_en.csv"},
			opt:    ImportOptions{Base: "https://staging.example:8443/shop/"},
			want:   []Entry{{"GET", "https://staging.example:8443/shop/", 1000}, {"GET", "https://staging.example:8443/shop/pricing", 234}},
			format: "yandex", read: 3, total: 1234, skipped: map[string]int64{"total": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var paths []string
			for _, f := range tt.files {
				paths = append(paths, fixture(f))
			}
			got, sum, err := Import(paths, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkEntries(t, got, tt.want)
			if sum.Format != tt.format || sum.RowsRead != tt.read || sum.Total != tt.total {
				t.Errorf("format %q, read %d, total %d; want %q, %d, %d", sum.Format, sum.RowsRead, sum.Total, tt.format, tt.read, tt.total)
			}
			if !maps.Equal(sum.Skipped, tt.skipped) {
				t.Errorf("skipped %v, want %v", sum.Skipped, tt.skipped)
			}
			if !slices.Equal(sum.BadRows, tt.bad) {
				t.Errorf("bad rows %q, want %q", sum.BadRows, tt.bad)
			}
			var kept int64
			for _, e := range got {
				kept += e.Count
			}
			if sum.Kept != kept {
				t.Errorf("kept %d, want the sum of the entries %d", sum.Kept, kept)
			}
		})
	}
}

// TestImportEncodings feeds one export in the encodings and line endings it may arrive in.
func TestImportEncodings(t *testing.T) {
	t.Parallel()
	plain, err := os.ReadFile(fixture("ga4.csv"))
	if err != nil {
		t.Fatal(err)
	}
	utf16 := func(s string, little bool) []byte {
		b := []byte{0xfe, 0xff}
		if little {
			b = []byte{0xff, 0xfe}
		}
		for _, r := range s { // the fixture is in the Basic Multilingual Plane
			if little {
				b = append(b, byte(r), byte(r>>8))
			} else {
				b = append(b, byte(r>>8), byte(r))
			}
		}
		return b
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"plain", plain},
		{"bom", append([]byte("\ufeff"), plain...)},
		{"crlf", bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n"))},
		{"bom and crlf", append([]byte("\ufeff"), bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n"))...)},
		{"no final newline", bytes.TrimRight(plain, "\n")},
		{"gzip", gzipBytes(t, plain)},
		{"utf-16le", utf16(string(plain), true)},
		{"utf-16be crlf", utf16(strings.ReplaceAll(string(plain), "\n", "\r\n"), false)},
	}
	want := []Entry{
		getEntry("/", 18250), getEntry("/catalog", 9600), getEntry("/product/42", 7400),
		getEntry("/cart", 4100), getEntry("/search?q=shoes", 2500),
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, sum, err := ImportReader(bytes.NewReader(tt.data), "ga4.csv", ImportOptions{Base: testBase})
			if err != nil {
				t.Fatal(err)
			}
			checkEntries(t, got, want)
			if sum.Format != "ga4" || sum.RowsRead != 8 {
				t.Errorf("format %q, read %d", sum.Format, sum.RowsRead)
			}
		})
	}
}

func TestImportTopMinCountCoverage(t *testing.T) {
	t.Parallel()
	// ga4.csv keeps 18250, 9600, 7400, 4100 and 2500 views: 41850 in all.
	tests := []struct {
		name     string
		top      int
		min      int64
		urls     int
		kept     int64
		coverage float64
		skipped  map[string]int64
	}{
		{"default keeps up to 50", 0, 0, 5, 41850, 100, nil},
		{"negative keeps all", -1, 0, 5, 41850, 100, nil},
		{"top 2", 2, 0, 2, 27850, 27850.0 / 41850 * 100, map[string]int64{"beyond --top": 3}},
		{"min count", 0, 4100, 4, 39350, 39350.0 / 41850 * 100, map[string]int64{"below --min-count": 1}},
		{"min count equal to a count keeps it", 0, 18250, 1, 18250, 18250.0 / 41850 * 100, map[string]int64{"below --min-count": 4}},
		{"min count then top", 1, 5000, 1, 18250, 18250.0 / 41850 * 100, map[string]int64{"below --min-count": 2, "beyond --top": 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, sum, err := Import([]string{fixture("ga4.csv")}, ImportOptions{Base: testBase, Top: tt.top, MinCount: tt.min})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.urls || sum.Kept != tt.kept || sum.Total != 41850 || sum.Coverage != tt.coverage {
				t.Errorf("%d entries, kept %d of %d, coverage %v; want %d, %d of 41850, %v",
					len(got), sum.Kept, sum.Total, sum.Coverage, tt.urls, tt.kept, tt.coverage)
			}
			for reason, n := range tt.skipped {
				if sum.Skipped[reason] != n {
					t.Errorf("skipped[%q] = %d, want %d", reason, sum.Skipped[reason], n)
				}
			}
		})
	}
}

func TestImportDetect(t *testing.T) {
	t.Parallel()
	tests := []struct{ file, format string }{
		{"ga4.csv", "ga4"},
		{"ua.csv", "ua"},
		{"yandex_ru.csv", "yandex"},
		{"yandex_ru.tsv", "yandex"},
		{"yandex_en.csv", "yandex"},
		{"matomo.csv", "matomo"},
		{"matomo_labels.csv", "matomo"},
		{"access.log", "log"},
		{"access_common.log", "log"},
		{"access.log.2.gz", "log"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			_, sum, err := Import([]string{fixture(tt.file)}, ImportOptions{Base: testBase})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Format != tt.format {
				t.Errorf("detected %q, want %q", sum.Format, tt.format)
			}
			// Naming the format must give the same answer.
			_, forced, err := Import([]string{fixture(tt.file)}, ImportOptions{Base: testBase, Format: tt.format})
			if err != nil || forced.Format != tt.format || forced.Total != sum.Total {
				t.Errorf("with --format %s: %v, format %q, total %d (detected total %d)", tt.format, err, forced.Format, forced.Total, sum.Total)
			}
		})
	}
}

// TestImportDetectHeaders covers header variants that have no fixture of their own.
func TestImportDetectHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, format string }{
		{"ga4 page path", "Page path,Views\n/a,1\n", "ga4"},
		{"ga4 path and query", "Page path + query string,Views,Users\n/a?b=1,1,1\n", "ga4"},
		{"ga4 page location", "Page location,Views\nhttps://x.example/a,1\n", "ga4"},
		{"ua needs its own columns without a preamble", "Page,Pageviews,Unique Pageviews\n/a,1,1\n", "ua"},
		{"ua by its comment preamble", "# Pages\n\nPage,Pageviews\n/a,1\n", "ua"},
		{"bare page and pageviews is metrica", "Page,Pageviews\nhttps://x.example/a,1\n", "yandex"},
		{"metrica url and visits", "URL\tVisits\nhttps://x.example/a\t3\n", "yandex"},
		{"metrica url strany", "URL страницы;Визиты\nhttps://x.example/a;3\n", "yandex"},
		{"metrica tree report", "\"URL, ур. 1\",\"URL, ур. 2\",Просмотры\nhttps://x.example/,https://x.example/a,3\n", "yandex"},
		{"matomo translated", "Label,Unique Pageviews,Pageviews\n/a,1,2\n", "matomo"},
		{"matomo url only", "url,nb_visits\nhttps://x.example/a,1\n", "matomo"},
		{"excel sep line", "sep=;\nPage path;Views\n/a;1\n", "ga4"},
		{"title line above header", "Popular pages, 01.11.2026 - 30.11.2026\nАдрес страницы,Просмотры\nhttps://x.example/a,1\n", "yandex"},
		{"quoted header", "\"Page path and screen class\",\"Views\"\n\"/a\",\"1\"\n", "ga4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, sum, err := ImportReader(strings.NewReader(tt.text), "in", ImportOptions{Base: testBase})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Format != tt.format {
				t.Errorf("detected %q, want %q", sum.Format, tt.format)
			}
			if len(got) != 1 || !strings.HasPrefix(got[0].URL, testBase+"/a") {
				t.Errorf("entries:\n%s", entriesText(got))
			}
		})
	}
}

// TestImportExamples keeps the samples in examples/import readable and detected as what they
// claim to be, since users copy their layout.
func TestImportExamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, format string
		opt          ImportOptions
		entries      int
		total        int64
	}{
		{"ga4-pages-and-screens.csv", "ga4", ImportOptions{}, 7, 56930},
		{"ua-all-pages.csv", "ua", ImportOptions{DropParams: []string{"sessionid", "utm_*"}}, 5, 27546},
		{"yandex-metrica-popular.csv", "yandex", ImportOptions{Host: "shop.example.ru"}, 5, 22310},
		{"matomo-page-urls.csv", "matomo", ImportOptions{}, 4, 3333},
		{"generic-hits.csv", "csv", ImportOptions{URLColumn: "endpoint", CountColumn: "hits"}, 3, 17370},
		{"access.log", "log", ImportOptions{DropParams: []string{"sid"}}, 6, 8},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			tt.opt.Base = testBase
			got, sum, err := Import([]string{filepath.Join("..", "examples", "import", tt.file)}, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Format != tt.format || len(got) != tt.entries || sum.Total != tt.total || len(sum.BadRows) != 0 {
				t.Errorf("format %q, %d entries, total %d, bad rows %q; want %q, %d, %d\n%s",
					sum.Format, len(got), sum.Total, sum.BadRows, tt.format, tt.entries, tt.total, entriesText(got))
			}
		})
	}
}
