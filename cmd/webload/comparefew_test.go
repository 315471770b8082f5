package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Runs of a few requests (a smoke test, a single probe saved with -o) compare in every format:
// their percentiles' intervals are unbounded, which JSON cannot hold, so the JSON leaves them
// out instead of failing with exit 2; the text, Markdown and the HTML report show them too.
func TestCompareRunsOfFewRequests(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	t.Cleanup(srv.Close)
	for _, n := range []int{1, 5, 19} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var saved []string
			for _, label := range []string{"old", "new"} {
				path := filepath.Join(dir, label+".json")
				if _, stderr, code := webload(t, nil, "-c", "1", "-r", fmt.Sprint(n), "--label", label, "-o", path, srv.URL+"/"); code != 0 {
					t.Fatalf("run %s: exit %d\n%s", label, code, stderr)
				}
				saved = append(saved, path)
			}
			for _, format := range []string{"text", "md", "json"} {
				stdout, stderr, code := webload(t, nil, append([]string{"compare", "--format", format}, saved...)...)
				if code != 0 || !strings.Contains(stdout, "new") || strings.Contains(stdout, "NaN") {
					t.Errorf("compare --format %s: exit %d\n%s%s", format, code, stdout, stderr)
				}
				if format == "json" && !json.Valid([]byte(stdout)) {
					t.Errorf("compare --format json wrote no JSON:\n%s", stdout)
				}
			}
			html := filepath.Join(dir, "report.html")
			if _, stderr, code := webload(t, nil, append([]string{"report", "--html", html}, saved...)...); code != 0 {
				t.Fatalf("report --html: exit %d\n%s", code, stderr)
			}
			page, err := os.ReadFile(html)
			if err != nil || !strings.Contains(string(page), "new") || strings.Contains(string(page), "NaN") {
				t.Errorf("HTML report (%v): %d bytes", err, len(page))
			}
		})
	}
}
