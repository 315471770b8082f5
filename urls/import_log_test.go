package urls

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// gzipBytes compresses data as logrotate would.
func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestParseAccessLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line string
		ok         bool
		want       importAccessLine
	}{
		{"combined", `127.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET /p/1?x=1 HTTP/1.1" 200 2326 "-" "Mozilla/5.0"`,
			true, importAccessLine{client: "127.0.0.1", at: 1791640536, request: "GET /p/1?x=1 HTTP/1.1", status: "200", agent: "Mozilla/5.0"}},
		{"common", `10.0.0.1 - frank [10/Oct/2026:13:55:36 -0700] "GET /a HTTP/1.0" 200 -`,
			true, importAccessLine{client: "10.0.0.1", at: 1791640536 + 7*3600, request: "GET /a HTTP/1.0", status: "200"}},
		{"extra nginx fields", `::1 - - [10/Oct/2026:13:55:36 +0000] "GET /a HTTP/2.0" 304 0 "https://r/" "UA \"quoted\"" 0.002 "-"`,
			true, importAccessLine{client: "::1", at: 1791640536, request: "GET /a HTTP/2.0", status: "304", agent: `UA "quoted"`, extra: []string{"0.002", "-"}}},
		{"escaped bytes", `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "\x16\x03" 400 157 "-" "-"`,
			true, importAccessLine{client: "1.2.3.4", at: 1791640536, request: "\x16\x03", status: "400", agent: "-"}},
		{"empty request", `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "" 408 0 "-" "-"`,
			true, importAccessLine{client: "1.2.3.4", at: 1791640536, request: "", status: "408", agent: "-"}},
		{"no date", `1.2.3.4 - - "GET / HTTP/1.1" 200 1`, false, importAccessLine{}},
		{"bad date", `1.2.3.4 - - [yesterday] "GET / HTTP/1.1" 200 1`, false, importAccessLine{}},
		{"unterminated request", `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1 200 1`, false, importAccessLine{}},
		{"bad status", `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" OK 1`, false, importAccessLine{}},
		{"missing bytes", `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200`, false, importAccessLine{}},
		{"csv", `Page,Pageviews`, false, importAccessLine{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := parseAccessLine(tt.line)
			if ok != tt.ok || ok && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseAccessLine = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestImportLogFilters(t *testing.T) {
	t.Parallel()
	entry := func(method, path string, n int64) Entry { return Entry{Method: method, URL: testBase + path, Count: n} }
	tests := []struct {
		name    string
		opt     ImportOptions
		want    []Entry
		skipped map[string]int64
	}{
		{"defaults", ImportOptions{},
			[]Entry{
				entry("GET", "/", 3), entry("GET", "/p/1?x=1", 2), entry("HEAD", "/p/1?x=1", 1),
				entry("GET", "/p/2", 1), entry("GET", "/q?x=%22y%22", 1), entry("GET", "/search?q=a%20b&sid=123", 1),
			},
			map[string]int64{"status": 3, "method": 1, "asset: under /static/": 1, "asset: *.png": 1, "bot": 2, "unreadable": 1}},
		{"assets and bots kept when asked", ImportOptions{IncludeAssets: true, IncludeBots: true, StripQuery: true, Methods: []string{"get"}},
			[]Entry{
				entry("GET", "/", 3), entry("GET", "/p/1", 2), entry("GET", "/p/2", 2), entry("GET", "/img/logo.PNG", 1),
				entry("GET", "/q", 1), entry("GET", "/robots.txt", 1), entry("GET", "/search", 1), entry("GET", "/static/app.css", 1),
			},
			map[string]int64{"status": 3, "method": 2, "unreadable": 1}},
		{"post only when asked", ImportOptions{Methods: []string{"POST"}},
			[]Entry{entry("POST", "/login", 1)},
			map[string]int64{"status": 3, "method": 13, "unreadable": 1}},
		{"status class and code", ImportOptions{Status: []string{"4XX", "500"}},
			[]Entry{entry("GET", "/error", 1), entry("GET", "/missing", 1)},
			map[string]int64{"status": 14, "unreadable": 2}},
		{"exact status", ImportOptions{Status: []string{"304"}},
			[]Entry{entry("GET", "/", 1)},
			map[string]int64{"status": 16, "unreadable": 1}},
		{"drop-param", ImportOptions{DropParams: []string{"sid", "x"}},
			[]Entry{
				entry("GET", "/", 3), entry("GET", "/p/1", 2), entry("HEAD", "/p/1", 1),
				entry("GET", "/p/2", 1), entry("GET", "/q", 1), entry("GET", "/search?q=a%20b", 1),
			},
			map[string]int64{"status": 3, "method": 1, "asset: under /static/": 1, "asset: *.png": 1, "bot": 2, "unreadable": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opt.Base = testBase
			got, sum, err := Import([]string{fixture("access.log")}, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkEntries(t, got, tt.want)
			if sum.RowsRead != 18 {
				t.Errorf("read %d lines, want 18", sum.RowsRead)
			}
			for reason, n := range tt.skipped {
				if sum.Skipped[reason] != n {
					t.Errorf("skipped[%q] = %d, want %d (all: %v)", reason, sum.Skipped[reason], n, sum.Skipped)
				}
			}
			if !slices.Contains(sum.BadRows, "testdata/import/access.log:14: not an access log line in the common or combined format") {
				t.Errorf("bad rows %q", sum.BadRows)
			}
		})
	}
}

// TestImportRotatedLogs reads a log and its rotated, gzipped predecessors in one call, as
// `webload urls import access.log access.log.1.gz access.log.2.gz` would.
func TestImportRotatedLogs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rotated := strings.Join([]string{
		`127.0.0.1 - - [09/Oct/2026:23:59:58 +0000] "GET /p/2 HTTP/1.1" 200 1800 "-" "Mozilla/5.0"`,
		`127.0.0.1 - - [09/Oct/2026:23:59:59 +0000] "GET /new HTTP/1.1" 200 1800 "-" "Mozilla/5.0"`,
	}, "\n") + "\n"
	// A ".gz" name and a misleading name: gzip is recognised by content.
	for _, name := range []string{"access.log.1.gz", "access.log.1.old"} {
		if err := os.WriteFile(filepath.Join(dir, name), gzipBytes(t, []byte(rotated)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Two gzip members in one file, as `cat a.gz b.gz` makes.
	multi := append(gzipBytes(t, []byte(rotated[:strings.IndexByte(rotated, '\n')+1])), gzipBytes(t, []byte(rotated[strings.IndexByte(rotated, '\n')+1:]))...)
	if err := os.WriteFile(filepath.Join(dir, "multi.gz"), multi, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		files []string
		want  []Entry
		read  int64
	}{
		{"checked-in gz", []string{fixture("access.log.2.gz")},
			[]Entry{getEntry("/p/2", 2), getEntry("/", 1)}, 4},
		{"current and rotated", []string{fixture("access.log"), filepath.Join(dir, "access.log.1.gz"), fixture("access.log.2.gz")},
			[]Entry{
				getEntry("/", 4), getEntry("/p/2", 4), getEntry("/p/1?x=1", 2), getEntry("/new", 1),
				{"HEAD", testBase + "/p/1?x=1", 1}, getEntry("/q?x=%22y%22", 1), getEntry("/search?q=a%20b&sid=123", 1),
			}, 24},
		{"gzip without the extension", []string{filepath.Join(dir, "access.log.1.old")},
			[]Entry{getEntry("/new", 1), getEntry("/p/2", 1)}, 2},
		{"concatenated gzip members", []string{filepath.Join(dir, "multi.gz")},
			[]Entry{getEntry("/new", 1), getEntry("/p/2", 1)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, sum, err := Import(tt.files, ImportOptions{Base: testBase})
			if err != nil {
				t.Fatal(err)
			}
			checkEntries(t, got, tt.want)
			if sum.Format != "log" || sum.RowsRead != tt.read {
				t.Errorf("format %q, read %d; want log, %d", sum.Format, sum.RowsRead, tt.read)
			}
		})
	}
}

func TestImportTruncatedGzip(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(fixture("access.log.2.gz"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cut.gz")
	if err := os.WriteFile(path, data[:len(data)-6], 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = Import([]string{path}, ImportOptions{Base: testBase})
	if err == nil || err.Error() != path+": read: unexpected EOF" {
		t.Errorf("error %v", err)
	}
}

func TestImportAssetsAndBots(t *testing.T) {
	t.Parallel()
	assets := []string{"/app.css", "/a/b.JS", "/x.mjs", "/m.js.map", "/i.png", "/i.jpg?v=2", "/i.jpeg", "/i.gif", "/i.svg",
		"/favicon.ico", "/i.webp", "/i.avif", "/f.woff", "/f.woff2", "/f.ttf", "/f.otf", "/f.eot", "/v.mp4",
		"/static/page", "/assets/x", "/_next/static/chunk", "/wp-content/uploads/a.pdf", "/wp-includes/x.php",
		"http://example.com/logo.png"}
	pages := []string{"/", "/shop", "/img.php?f=a.png", "/docs/css-guide", "/about.html", "/api/items.json", "/static", "/p#x.png"}
	for _, a := range assets {
		if !importIsAsset(a) {
			t.Errorf("importIsAsset(%q) = false", a)
		}
	}
	for _, p := range pages {
		if importIsAsset(p) {
			t.Errorf("importIsAsset(%q) = true", p)
		}
	}
	bots := []string{"Mozilla/5.0 (compatible; Googlebot/2.1)", "Mozilla/5.0 (compatible; bingbot/2.0)", "Baiduspider",
		"Yahoo! Slurp", "facebookexternalhit/1.1", "curl/8.5.0", "Wget/1.21", "python-requests/2.32", "Go-http-client/1.1",
		"Mozilla/5.0 HeadlessChrome/120", "SomeCrawler/1.0", "Scrapy/2.11", "Python-urllib/3.12"}
	people := []string{"Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0", "Mozilla/5.0 (iPhone) Safari/604.1", "", "-"}
	for _, b := range bots {
		if !importIsBot(b) {
			t.Errorf("importIsBot(%q) = false", b)
		}
	}
	for _, p := range people {
		if importIsBot(p) {
			t.Errorf("importIsBot(%q) = true", p)
		}
	}
}
