package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
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
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	// /page/N answers with (N+1) KB, so the URLs' bytes differ and sorting them shows; the sort
	// is checked on these sizes, which the test controls, not on measured times. Each of the 6
	// users walks the 6 URLs once (-r 6), so every URL has 6 hits; 400 ms per answer makes the
	// run last at least 2.4 s, a timeline of several seconds to draw.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/page/%d", &n)
		time.Sleep(400 * time.Millisecond)
		fmt.Fprint(w, strings.Repeat("x", (n+1)*1000))
	}))
	t.Cleanup(site.Close)
	page := filepath.Join(t.TempDir(), "run.html")
	_, stderr, code := webload(t, nil, "-q", "-c", "6", "-r", "6", "-f", urlFile(t, site.URL, 6), "--label", "browser run", "--html", page)
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

	// Sort by bytes (column 10): ascending, then descending on a second click. The list is
	// in ascending size already, so the first click must keep it and the second reverse it.
	const bytesHeader = "table.urls thead th:nth-child(10)"
	ascending := []string{"/page/0", "/page/1", "/page/2", "/page/3", "/page/4", "/page/5"}
	before := browsertest.Eval[[]string](p, urlColumn(1))
	if !slices.Equal(before, ascending) {
		t.Fatalf("URL column before sorting: %q", before)
	}
	for _, order := range []string{"ascending", "descending"} {
		p.Click(bytesHeader)
		if got := browsertest.Eval[string](p, `document.querySelector("`+bytesHeader+`").getAttribute("aria-sort")`); got != order {
			t.Errorf("header says %q, want %q", got, order)
		}
		want := slices.Clone(ascending)
		if order == "descending" {
			slices.Reverse(want)
		}
		if got := browsertest.Eval[[]string](p, urlColumn(1)); !slices.Equal(got, want) {
			t.Errorf("%s by bytes: URLs %q, want %q (bytes %q)", order, got, want, browsertest.Eval[[]string](p, urlColumn(9)))
		}
	}

	if requests := p.Requests(); len(requests) != 1 || !strings.HasPrefix(requests[0], "file://") {
		t.Errorf("the page made requests beyond its own file: %q", requests)
	}
}
