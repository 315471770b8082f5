package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/browsertest"
)

// chartCheck measures every chart of the page: its canvas's size and how many of its pixels
// were painted (a blank canvas has none).
const chartCheck = `Array.from(document.querySelectorAll(".uplot canvas")).map((c) => {
  const px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let painted = 0;
  for (let i = 3; i < px.length; i += 4) { if (px[i] > 0) painted++; }
  return {width: c.width, height: c.height, painted: painted};
})`

type chartFigures struct {
	Width, Height, Painted int
}

// urlColumn reads one column of the per-URL table, top to bottom.
func urlColumn(col int) string {
	return fmt.Sprintf(`Array.from(document.querySelectorAll("table.urls tbody tr")).map((r) => r.cells[%d].textContent)`, col)
}

// TestHTMLReportInBrowser opens the --html page of a real loopback run in headless Chromium:
// it must draw every chart and table without an error, sort the per-URL table by a column when
// its header is clicked, and make no request. A screenshot is kept (see SaveArtifact).
func TestHTMLReportInBrowser(t *testing.T) {
	t.Parallel()
	if _, err := browsertest.Find(); err != nil {
		t.Skipf("browser test skipped: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// /page/N answers after N ms, so the URLs' latencies differ and sorting them shows.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/page/%d", &n)
		time.Sleep(time.Duration(n) * time.Millisecond)
		fmt.Fprintln(w, "page", n)
	}))
	t.Cleanup(site.Close)
	page := filepath.Join(t.TempDir(), "run.html")
	_, stderr, code := webload(t, nil, "-q", "-c", "6", "-t", "2S", "-f", urlFile(t, site.URL, 6), "--label", "browser run", "--html", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	p := browsertest.Open(t, ctx, page, `document.documentElement.dataset.ready === "yes"`)
	defer func() {
		path := browsertest.SaveArtifact(t, "html-report.png", p.Screenshot())
		t.Logf("screenshot: %s", path)
	}()

	if problems := p.Problems(); len(problems) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(problems, "\n"))
	}
	charts := browsertest.Eval[[]chartFigures](p, chartCheck)
	if len(charts) != 2 {
		t.Errorf("%d charts, want 2 (percentiles, timeline)", len(charts))
	}
	for i, c := range charts {
		if c.Width == 0 || c.Height == 0 || c.Painted < 1000 {
			t.Errorf("chart %d: %dx%d canvas with %d painted pixels: not drawn", i, c.Width, c.Height, c.Painted)
		}
	}
	if title := browsertest.Eval[string](p, `document.title`); title != "webload: browser run" {
		t.Errorf("title %q", title)
	}

	// Sort by mean latency (column 5): ascending, then descending on a second click.
	const meanHeader = "table.urls thead th:nth-child(5)"
	before := browsertest.Eval[[]string](p, urlColumn(1))
	if len(before) != 6 || before[0] != "/page/0" {
		t.Fatalf("URL column before sorting: %q", before)
	}
	for _, order := range []string{"ascending", "descending"} {
		p.Click(meanHeader)
		if got := browsertest.Eval[string](p, `document.querySelector("`+meanHeader+`").getAttribute("aria-sort")`); got != order {
			t.Errorf("header says %q, want %q", got, order)
		}
		means := browsertest.Eval[[]string](p, urlColumn(4))
		for i := 1; i < len(means); i++ {
			var a, b float64
			fmt.Sscan(means[i-1], &a)
			fmt.Sscan(means[i], &b)
			if order == "ascending" && a > b || order == "descending" && a < b {
				t.Errorf("%s: mean %v before %v: %q", order, a, b, means)
			}
		}
	}
	after := browsertest.Eval[[]string](p, urlColumn(1))
	if after[0] != "/page/5" {
		t.Errorf("slowest first after two clicks: first row %q, want /page/5 (URLs %q)", after[0], after)
	}

	if requests := p.Requests(); len(requests) != 1 || !strings.HasPrefix(requests[0], "file://") {
		t.Errorf("the page made requests beyond its own file: %q", requests)
	}
}
