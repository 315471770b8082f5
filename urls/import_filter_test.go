package urls

import (
	"strings"
	"testing"
)

func TestImportAssetRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, target, ctype, want string
	}{
		{"mediawiki styles bundle", "/load.php?lang=en&modules=site.styles&only=styles&skin=vector", "", "asset: load.php"},
		{"mediawiki under /w/", "/w/load.php?modules=startup&only=scripts", "", "asset: load.php"},
		{"mediawiki resources", "/resources/assets/poweredby_mediawiki.svg", "", "asset: under /resources/"},
		{"mediawiki skins", "/w/skins/Vector/resources/x", "", "asset: under /w/skins/"},
		{"stylesheet", "/app.css?v=3", "", "asset: *.css"},
		{"source map", "/m.js.map", "", "asset: *.map"},
		{"font", "/f/a.WOFF2", "", "asset: *.woff2"},
		{"favicon", "/favicon.ico", "", "asset: favicon.ico"},
		{"robots", "/robots.txt", "", "asset: robots.txt"},
		{"manifest", "/site.webmanifest", "", "asset: *.webmanifest"},
		{"wordpress", "/wp-content/themes/t/style.css", "", "asset: under /wp-content/"},
		{"full url", "http://example.com/static/x", "", "asset: under /static/"},
		{"content type of a script", "/index.php?title=MediaWiki:Common.js&action=raw", "text/javascript; charset=utf-8", "asset: content type text/javascript"},
		{"content type of an image", "/thumb.php?f=a", "image/png", "asset: content type image/png"},
		{"content type of a page wins over the path", "/static/about", "text/html; charset=UTF-8", ""},
		{"content type unknown: path decides", "/load.php?modules=x", "-", "asset: load.php"},
		{"page", "/wiki/Main_Page", "", ""},
		{"script endpoint", "/img.php?f=a.png", "", ""},
		{"search", "/index.php?search=load.php", "", ""},
		{"json api", "/api.php?action=query&format=json", "application/json", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := importAssetRule(tt.target, tt.ctype); got != tt.want {
				t.Errorf("importAssetRule(%q, %q) = %q, want %q", tt.target, tt.ctype, got, tt.want)
			}
		})
	}
}

// filterLog has pages, MediaWiki bundles and a special page; the last line carries nginx's
// $sent_http_content_type after the user agent.
const filterLog = `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /wiki/Main_Page HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /wiki/Main_Page HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /load.php?modules=site.styles&only=styles HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /load.php?modules=startup&only=scripts HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /wiki/Special:Random HTTP/1.1" 302 0 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /wiki/Help HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /index.php?title=MediaWiki:Common.css&action=raw HTTP/1.1" 200 51 "-" "Mozilla/5.0" "text/css; charset=utf-8"
`

func TestImportIncludeExclude(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opt     ImportOptions
		want    []string // paths, most visited first
		skipped map[string]int64
	}{
		{"defaults drop the assets, each rule counted", ImportOptions{},
			[]string{"/wiki/Main_Page", "/wiki/Help", "/wiki/Special:Random"},
			map[string]int64{"asset: load.php": 2, "asset: content type text/css": 1}},
		{"exclude applies last", ImportOptions{Exclude: []string{`^/wiki/Special:`}},
			[]string{"/wiki/Main_Page", "/wiki/Help"},
			map[string]int64{"asset: load.php": 2, "asset: content type text/css": 1, "--exclude ^/wiki/Special:": 1}},
		{"include keeps only its matches", ImportOptions{Include: []string{`^/wiki/M`, `Help$`}},
			[]string{"/wiki/Main_Page", "/wiki/Help"},
			map[string]int64{"no --include match": 4}},
		{"include wins over the asset rule", ImportOptions{Include: []string{`only=styles`, `^/wiki/`}},
			[]string{"/wiki/Main_Page", "/load.php?modules=site.styles&only=styles", "/wiki/Help", "/wiki/Special:Random"},
			map[string]int64{"no --include match": 2}},
		{"exclude wins over include", ImportOptions{Include: []string{`^/wiki/`}, Exclude: []string{`Special`, `Help`}},
			[]string{"/wiki/Main_Page"},
			map[string]int64{"no --include match": 3, "--exclude Special": 1, "--exclude Help": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opt.Base = testBase
			got, sum, err := ImportReader(strings.NewReader(filterLog), "access.log", tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, e := range got {
				paths = append(paths, strings.TrimPrefix(e.URL, testBase))
			}
			if strings.Join(paths, " ") != strings.Join(tt.want, " ") {
				t.Errorf("entries %q, want %q", paths, tt.want)
			}
			if len(sum.Skipped) != len(tt.skipped) {
				t.Errorf("skipped %v, want %v", sum.Skipped, tt.skipped)
			}
			for k, n := range tt.skipped {
				if sum.Skipped[k] != n {
					t.Errorf("skipped %v, want %v", sum.Skipped, tt.skipped)
					break
				}
			}
		})
	}
}

// TestImportFilterExport: --include and --exclude apply to analytics exports too, by path.
func TestImportFilterExport(t *testing.T) {
	t.Parallel()
	csv := "Page,Views\n/a,5\nhttps://shop.example/b?x=1,4\n/c,3\n"
	got, sum, err := ImportReader(strings.NewReader(csv), "export.csv", ImportOptions{
		Base: testBase, URLColumn: "Page", CountColumn: "Views", Exclude: []string{`^/b\?`}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].URL != testBase+"/a" || got[1].URL != testBase+"/c" || sum.Skipped[`--exclude ^/b\?`] != 1 {
		t.Errorf("entries %v, skipped %v", got, sum.Skipped)
	}
}

func TestImportBadFilterRegex(t *testing.T) {
	t.Parallel()
	for _, opt := range []ImportOptions{{Include: []string{"("}}, {Exclude: []string{"a", "[z-a]"}}} {
		_, _, err := ImportReader(strings.NewReader(filterLog), "access.log", opt)
		flag := "--include"
		if opt.Exclude != nil {
			flag = "--exclude"
		}
		if err == nil || !strings.HasPrefix(err.Error(), "bad "+flag+" ") {
			t.Errorf("%+v: error %v, want one naming %s", opt, err, flag)
		}
	}
}

func TestParseAccessLineContentType(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, tail, want string }{
		{"after the agent", ` "-" "Mozilla/5.0" "text/css; charset=utf-8"`, "text/css; charset=utf-8"},
		{"after timings", ` "-" "Mozilla/5.0" 0.012 "image/png"`, "image/png"},
		{"none logged", ` "-" "Mozilla/5.0" "-"`, ""},
		{"not a media type", ` "-" "Mozilla/5.0" "10.0.0.1"`, ""},
		{"an Accept header is no content type", ` "-" "Mozilla/5.0" "*/*" "text/css,*/*;q=0.1" "image/png"`, "image/png"},
		{"combined only", ` "-" "Mozilla/5.0"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec, ok := parseAccessLine(`1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200 1` + tt.tail)
			if !ok || rec.ctype != tt.want || rec.agent != "Mozilla/5.0" {
				t.Errorf("got %+v, %v; want content type %q", rec, ok, tt.want)
			}
		})
	}
}
