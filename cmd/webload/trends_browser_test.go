package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/browsertest"
)

// markCheck counts, in the chart of figure key, the pixels painted in a change point's colours
// (regressions #b3261e, improvements #1e7b34): the line of the figure itself is blue, so only
// the markers and their text paint them.
const markCheck = `((key) => {
  const c = document.querySelector("#figure-" + CSS.escape(key) + " .uplot canvas");
  if (!c) { return -1; }
  const px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < px.length; i += 4) {
    const red = px[i] === 179 && px[i+1] === 38 && px[i+2] === 30;
    const green = px[i] === 30 && px[i+1] === 123 && px[i+2] === 52;
    if (px[i+3] === 255 && (red || green)) { n++; }
  }
  return n;
})`

// TestTrendPageInBrowser opens the trend page of a 20-night history with a step at night 13 in
// headless Chromium: it draws one chart per figure without an error or a request, marks the
// step on p95 and on no figure the step left alone (failed: none every night), lists the step
// under the chart, and links night 5 to its own report.
func TestTrendPageInBrowser(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	dir := slowerFrom(t, 20, 13)
	if err := os.WriteFile(filepath.Join(dir, "night-05.html"), []byte("<p>night 5</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "trends.html")
	if _, stderr, code := webload(t, nil, "report", "--history", dir, "--html", page); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	figures := len(readTrendsPage(t, page).Figures)

	p := browsertest.Open(t, ctx, page, `document.documentElement.dataset.ready === "yes"`)
	defer func() {
		t.Logf("screenshot: %s", browsertest.SaveArtifact(t, "trend-page.png", p.Screenshot()))
	}()
	if problems := p.Problems(); len(problems) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(problems, "\n"))
	}
	charts := browsertest.Eval[[]chartFigures](p, chartCheck)
	if len(charts) != figures || figures < 8 {
		t.Errorf("%d charts, want one per figure (%d)", len(charts), figures)
	}
	for i, c := range charts {
		if c.Width == 0 || c.Height == 0 || c.Painted < 1000 {
			t.Errorf("chart %d: %dx%d canvas with %d painted pixels: not drawn", i, c.Width, c.Height, c.Painted)
		}
	}
	if n := browsertest.Eval[int](p, markCheck+`("p95")`); n < 100 {
		t.Errorf("p95: %d pixels of a change point's colour, want a marker", n)
	}
	if n := browsertest.Eval[int](p, markCheck+`("failed")`); n != 0 {
		t.Errorf("failed: %d pixels of a change point's colour, want none", n)
	}
	if got := browsertest.Eval[string](p, `document.querySelector("#figure-p95 ul.changes li").textContent`); !strings.HasPrefix(got, "From night 13 (night 13): ") ||
		!strings.Contains(got, " → ") || !strings.HasSuffix(got, ", regression") {
		t.Errorf("p95's change point reads %q", got)
	}
	if got := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll("table.nights a")).map((a) => a.getAttribute("href"))`); len(got) != 1 || got[0] != "night-05.html" {
		t.Errorf("links %q, want night 5's report", got)
	}
	if rows := browsertest.Eval[int](p, `document.querySelectorAll("table.url-changes tbody tr").length`); rows != 1 {
		t.Errorf("%d rows of URLs that changed, want 1", rows)
	}
	if title := browsertest.Eval[string](p, `document.title`); title != "webload trends: "+filepath.Base(dir) {
		t.Errorf("title %q, want the folder's name", title)
	}
	if requests := p.Requests(); len(requests) != 1 || !strings.HasPrefix(requests[0], "file://") {
		t.Errorf("the page made requests beyond its own file: %q", requests)
	}
}
