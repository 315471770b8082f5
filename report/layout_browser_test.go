package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/browsertest"
	"github.com/webload/webload/stats"
)

// boxLayout is how a table sits in the box that scrolls it, measured in the page with
// getBoundingClientRect (CSS pixels).
type boxLayout struct {
	Table string // the table's classes
	// Left and Right are the box's edges on the screen; Width and Height what it shows of the
	// table, ScrollWidth the table's whole width inside it.
	Left, Right, Width, Height, ScrollWidth float64
	// Headers are the columns' titles with their right edges, the widest a cell of each
	// column needs (its scrollWidth) beside the width it has, to find clipped text, and whether
	// a cell's text runs over several lines.
	Headers []struct {
		Title       string
		Right       float64
		Need, Given float64
		Wrapped     bool
	}
	// StickyLeft is where the column that names the rows (a URL, a path, a figure) is once the
	// box is scrolled to its far right, from the box's left edge, for a table that has one.
	HasURL     bool
	StickyLeft float64
}

// measureBoxes measures every table of the page in its box; it scrolls each box to its far
// right to see where the URL column is then, and back.
const measureBoxes = `Array.from(document.querySelectorAll(".table-box")).map((box) => {
  const table = box.querySelector("table");
  const b = box.getBoundingClientRect();
  const headers = Array.from(table.tHead.rows[0].cells).map((th, i) => {
    let need = th.scrollWidth, given = th.clientWidth, wrapped = false;
    for (const row of table.tBodies[0].rows) {
      const td = row.cells[i];
      if (td.scrollWidth - td.clientWidth > need - given) { need = td.scrollWidth; given = td.clientWidth; }
      const text = document.createRange();
      text.selectNodeContents(td);
      wrapped = wrapped || text.getClientRects().length > 1; // one rectangle per line
    }
    return {title: th.textContent, right: th.getBoundingClientRect().right, need: need, given: given, wrapped: wrapped};
  });
  let stickyLeft = 0;
  const url = Array.from(table.tHead.rows[0].cells).find((th) => ["URL", "Path", "Figure"].includes(th.textContent));
  if (url) {
    box.scrollLeft = box.scrollWidth;
    stickyLeft = url.getBoundingClientRect().left - b.left;
    box.scrollLeft = 0;
  }
  return {table: table.className, left: b.left, right: b.right, width: box.clientWidth, height: box.clientHeight,
    scrollWidth: box.scrollWidth, headers: headers, hasURL: !!url, stickyLeft: stickyLeft};
})`

// wideResults are four results of a site with long URLs (MediaWiki's style bundles) loaded
// like a browser, the last three --repeat series: the widest tables the page makes.
func wideResults(t *testing.T) []stats.Report {
	t.Helper()
	results := make([]stats.Report, 4)
	for i := range results {
		rep := synthetic(load{label: fmt.Sprintf("stack %d", i+1), urls: 12, seconds: 10, perSecond: 60, slowdown: float64(i + 1), seed: uint64(i + 1)})
		for j := range rep.URLs {
			u := &rep.URLs[j]
			u.URL = fmt.Sprintf("http://127.0.0.1:8101/load.php?lang=en&modules=ext.cite.styles%%7Cmediawiki.legacy.shared%%7Cskins.vector.styles.legacy&only=styles&skin=vector&page=%d", j)
			u.Pages = &stats.URLPages{Pages: u.Hits, Failed: u.Failures, P95: 0.3, Resources: 12 * u.Hits, ResourceFailures: 1}
		}
		if i > 0 {
			rep.Repeats = []stats.Report{rep, rep, rep}
		}
		results[i] = rep
	}
	return results
}

// TestTablesFitTheScreen opens the page of four results in Chromium at 1280 and 1920 pixels
// wide. Every table scrolls sideways inside its own box, which stays on the screen and no
// taller than it, so its scroll bar is in reach; at 1920 the per-URL and comparison tables
// show every column without scrolling; no cell's text is clipped; the URL column stays in
// view when a table is scrolled. Screenshots are kept (see browsertest.SaveArtifact).
func TestTablesFitTheScreen(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	html := render(t, wideResults(t), Options{})
	path := filepath.Join(t.TempDir(), "wide.html")
	if err := os.WriteFile(path, html, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("page: %s", browsertest.SaveArtifact(t, "tables.html", html))
	page := browsertest.Open(t, ctx, path, `document.documentElement.dataset.ready === "yes"`)
	for _, width := range []int{1280, 1440, 1920} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			const height = 1000
			page.SetViewport(width, height)
			defer func() {
				t.Logf("screenshot: %s", browsertest.SaveArtifact(t, fmt.Sprintf("tables-%d.png", width), page.Screenshot()))
			}()
			boxes := browsertest.Eval[[]boxLayout](page, measureBoxes)
			if len(boxes) < 5 {
				t.Fatalf("%d tables, want the summary, comparison, URL changes and the per-URL ones", len(boxes))
			}
			for _, b := range boxes {
				if b.Left < 0 || b.Right > float64(width)+0.5 {
					t.Errorf("%s: box from %.0f to %.0f px, off a %d px screen", b.Table, b.Left, b.Right, width)
				}
				if b.Height > height {
					t.Errorf("%s: box %.0f px tall, more than the %d px screen: its scroll bar is out of reach", b.Table, b.Height, height)
				}
				for _, h := range b.Headers {
					if h.Right > b.Left+b.ScrollWidth+0.5 {
						t.Errorf("%s: column %q ends at %.0f px, past the box's scrollable area (%.0f to %.0f)", b.Table, h.Title, h.Right, b.Left, b.Left+b.ScrollWidth)
					}
					if h.Need > h.Given+0.5 {
						t.Errorf("%s: column %q clipped: a cell needs %.0f px, has %.0f", b.Table, h.Title, h.Need, h.Given)
					}
					if h.Title == "verdict" && h.Wrapped {
						t.Errorf("%s: a verdict runs over two lines (\"no / estimate\"): it reads as two words of a clipped column", b.Table)
					}
				}
				wide := strings.Contains(b.Table, "urls") || strings.Contains(b.Table, "comparison") || strings.Contains(b.Table, "url-changes")
				if width >= 1400 && wide && b.ScrollWidth > b.Width+0.5 {
					t.Errorf("%s: %.0f px wide in a box of %.0f at %d px: columns %s are off-screen", b.Table, b.ScrollWidth, b.Width, width, offscreen(b))
				}
				if b.HasURL && math.Abs(b.StickyLeft) > 0.5 && b.ScrollWidth > b.Width+0.5 {
					t.Errorf("%s: scrolled to the right, the column naming the rows is %.0f px from the box's left edge, want it kept at the edge", b.Table, b.StickyLeft)
				}
			}
			if p := page.Problems(); len(p) > 0 {
				t.Errorf("the page reported problems:\n%s", strings.Join(p, "\n"))
			}
		})
	}
}

// offscreen names the columns past a box's visible width.
func offscreen(b boxLayout) string {
	var names []string
	for _, h := range b.Headers {
		if h.Right > b.Left+b.Width+0.5 {
			names = append(names, fmt.Sprintf("%q", h.Title))
		}
	}
	return strings.Join(names, ", ")
}

// paintedAt counts the coloured pixels (a line's, not the grey grid's) in a strip 5 pixels wide
// across the plotting area of the first timeline chart, at each of the given seconds into the
// run; the x scale spans the timeline's first to last point, as uPlot sets it.
const paintedAt = `((seconds) => {
  const plot = document.querySelector("#timelines .uplot");
  const canvas = plot.querySelector("canvas");
  const over = plot.querySelector(".u-over").getBoundingClientRect();
  const box = canvas.getBoundingClientRect();
  const ratio = canvas.width / box.width;
  const t = JSON.parse(document.getElementById("data").textContent).runs[0].timeline.t;
  const px = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data; // read once
  const top = Math.round((over.top - box.top) * ratio), bottom = top + Math.round(over.height * ratio);
  return seconds.map((s) => {
    const x = Math.round((over.left - box.left + (s - t[0]) / (t[t.length - 1] - t[0]) * over.width) * ratio);
    let coloured = 0;
    for (let y = top; y < bottom; y++) {
      for (let i = 4 * (y * canvas.width + x - 2); i < 4 * (y * canvas.width + x + 3); i += 4) {
        if (px[i + 3] > 128 && Math.max(px[i], px[i + 1], px[i + 2]) - Math.min(px[i], px[i + 1], px[i + 2]) > 80) coloured++;
      }
    }
    return coloured;
  });
})`

// TestPauseIsAGapInBrowser draws the timeline of two 10 s runs with a 10 s pause between them
// in Chromium: lines are drawn through the runs and none across the pause.
func TestPauseIsAGapInBrowser(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	path := filepath.Join(t.TempDir(), "series.html")
	if err := os.WriteFile(path, render(t, []stats.Report{series2(t, 10, 0, 20)}, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	page := browsertest.Open(t, ctx, path, `document.documentElement.dataset.ready === "yes"`)
	defer func() {
		t.Logf("screenshot: %s", browsertest.SaveArtifact(t, "series-pause.png", page.Screenshot()))
	}()
	painted := browsertest.Eval[[]int](page, paintedAt+`([5, 15, 25])`)
	if len(painted) != 3 || painted[0] == 0 || painted[2] == 0 {
		t.Fatalf("coloured pixels at 5, 15 and 25 s: %v; want lines drawn in both runs", painted)
	}
	if painted[1] != 0 {
		t.Errorf("%d coloured pixels at 15 s, in the pause: a line is drawn across it", painted[1])
	}
	if p := page.Problems(); len(p) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(p, "\n"))
	}
}
