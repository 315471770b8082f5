package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/browsertest"
)

// openLargeReport opens the page of TestLargeReport in headless Chromium and logs how long it
// takes to draw; it must draw without an error or a request.
func openLargeReport(t *testing.T, html []byte) {
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, html, 0o644); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	page := browsertest.Open(t, ctx, path, `document.documentElement.dataset.ready === "yes"`)
	t.Logf("Chromium started and drew the page in %v", time.Since(begin).Round(time.Millisecond))
	// The navigation's own timing: from the request of the file to the end of its load event,
	// after the page's script has drawn every table and chart.
	loaded := browsertest.Eval[float64](page, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
	t.Logf("the page loaded and drew itself in %.0f ms", loaded)
	if p := page.Problems(); len(p) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(p, "\n"))
	}
	if r := page.Requests(); len(r) != 1 || !strings.HasPrefix(r[0], "file://") {
		t.Errorf("the page made requests: %q", r)
	}
	if rows := browsertest.Eval[int](page, `document.querySelectorAll("table.urls tbody tr").length`); rows != 500 {
		t.Errorf("%d URL rows, want 500", rows)
	}
}
