package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wikiLog is a MediaWiki access log in nginx's combined format: two pages, a special page and
// the load.php style and script bundles each page view brings.
const wikiLog = `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /wiki/Main_Page HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /load.php?lang=en&modules=site.styles&only=styles&skin=vector HTTP/1.1" 200 900 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /load.php?lang=en&modules=startup&only=scripts&skin=vector HTTP/1.1" 200 900 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /wiki/Help HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /load.php?lang=en&modules=site.styles&only=styles&skin=vector HTTP/1.1" 200 900 "-" "Mozilla/5.0"
1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /wiki/Special:Search?search=x HTTP/1.1" 200 5120 "-" "Mozilla/5.0"
`

func TestImportIncludeExcludeFlags(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "access.log")
	if err := os.WriteFile(log, []byte(wikiLog), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"urls", "import", "--base", "http://127.0.0.1:8080"}
	tests := []struct {
		name     string
		args     []string
		code     int
		urls     []string // paths in the written list, in order
		messages []string // in the summary or the error
	}{
		{"assets left out, by rule", nil, 0,
			[]string{"/wiki/Help", "/wiki/Main_Page", "/wiki/Special:Search?search=x"},
			[]string{"skipped 3 rows: asset: load.php"}},
		{"exclude", []string{"--exclude", "^/wiki/Special:"}, 0,
			[]string{"/wiki/Help", "/wiki/Main_Page"},
			[]string{"skipped 1 rows: --exclude ^/wiki/Special:", "skipped 3 rows: asset: load.php"}},
		{"include wins over the asset rule, repeatable", []string{"--include", "only=styles", "--include", "Main"}, 0,
			[]string{"/load.php?lang=en&modules=site.styles&only=styles&skin=vector", "/wiki/Main_Page"},
			[]string{"skipped 3 rows: no --include match"}},
		{"bad exclude", []string{"--exclude", "a(b"}, 2, nil, []string{`bad --exclude "a(b"`}},
		{"bad include", []string{"--include", "*x"}, 2, nil, []string{`bad --include "*x"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append(append(append([]string{}, base...), tc.args...), log)
			stdout, stderr, code := webload(t, nil, args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			var got []string
			for _, line := range strings.Split(stdout, "\n") {
				if strings.HasPrefix(line, "http://") {
					got = append(got, strings.TrimPrefix(line, "http://127.0.0.1:8080"))
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.urls, "\n") {
				t.Errorf("list %q, want %q", got, tc.urls)
			}
			for _, m := range tc.messages {
				if !strings.Contains(stderr, m) {
					t.Errorf("stderr lacks %q:\n%s", m, stderr)
				}
			}
		})
	}
}
