package report

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/content"
	"github.com/webload/webload/internal/browsertest"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

// brokenResults are wideResults whose second stack answers its first URL with 404s only, its
// second with a tenth of the size, and its third with content a fingerprint comparison finds
// changed: a price in a long sentence, so the excerpt is long.
func brokenResults(t *testing.T) []stats.Report {
	t.Helper()
	results := wideResults(t)
	r := &results[1]
	gone := &r.URLs[0]
	gone.StatusCodes = stats.StatusCounts{"404": gone.Hits + gone.Failures}
	short := &r.URLs[1]
	short.Size = &stats.SizeStats{Count: short.Size.Count, Sum: short.Size.Sum / 10, SumSquares: short.Size.SumSquares / 100,
		Min: short.Size.Min / 10, Max: short.Size.Max / 10}
	results[0].URLs[2].Content = basketProfile(t, "15.65", judge.MinContentSamples)
	r.URLs[2].Content = basketProfile(t, "18.65", judge.MinContentSamples)
	return results
}

// basketProfile is the fingerprint of a basket page at the given price, learned from answers
// whose form token varies from one to the next.
func basketProfile(t *testing.T, price string, answers int) *content.Profile {
	t.Helper()
	l := content.NewLearner(content.Options{})
	var s content.Scanner
	for i := range answers {
		page := fmt.Sprintf("<html><body>\n<p>Your basket holds 3 items. Price: %s EUR, shipping included, "+
			"delivered within two working days.</p>\n<input name=token value=\"%x\">\n</body></html>\n", price, rand.Uint64())
		if !l.Sample(200, []byte("text/html")) {
			t.Fatalf("answer %d was not sampled", i)
		}
		l.Observe(&s, []byte(page))
	}
	p := l.Profile()
	return &p
}

// The comparison's Content table lists the URLs that answer differently, biggest change first,
// each with its kind, before and after; a page of results that answer alike says so.
func TestContentTable(t *testing.T) {
	t.Parallel()
	results := brokenResults(t)
	rows, note := contentData(t, render(t, results[:2], Options{}))
	if len(rows) != 3 {
		t.Fatalf("%d content rows, want 3: %v", len(rows), rows)
	}
	want := [][]string{
		{"stack 2", "GET", "status", "404 ×"},
		{"stack 2", "GET", "size", " KiB"},
		{"stack 2", "GET", "content", "Price: 18.65 EUR"},
	}
	for i, w := range want {
		got := fmt.Sprint(rows[i])
		if fmt.Sprint(rows[i][0]) != w[0] || fmt.Sprint(rows[i][1]) != w[1] || fmt.Sprint(rows[i][3]) != w[2] || !strings.Contains(got, w[3]) {
			t.Errorf("row %d: %v, want %v", i, rows[i], w)
		}
	}
	if !strings.HasPrefix(note, "Each URL whose answers changed, once") {
		t.Errorf("note %q", note)
	}
	rows, note = contentData(t, render(t, []stats.Report{results[0], results[0]}, Options{}))
	if len(rows) != 0 || note != "The 12 URLs answer as the baseline did: the same status mix, content and size." {
		t.Errorf("the same result twice: %v, %q", rows, note)
	}
	// A URL fingerprinted fewer times than the learning needs is listed last, not judged.
	results[1].URLs[2].Content = basketProfile(t, "18.65", judge.MinContentSamples-1)
	rows, note = contentData(t, render(t, results[:2], Options{}))
	if len(rows) != 3 || !strings.Contains(fmt.Sprint(rows[2]), "not judged") || !strings.Contains(note, "1 URL was not judged on content") {
		t.Errorf("a URL not judged: %v, %q", rows, note)
	}
}

// contentData reads the Content table's rows and note from a page's data.
func contentData(t *testing.T, page []byte) (rows [][]any, note string) {
	t.Helper()
	var d struct {
		Comparison struct {
			Content struct {
				Rows [][]any `json:"rows"`
			} `json:"content"`
			Note string `json:"content_note"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal(dataBlob(t, page), &d); err != nil {
		t.Fatal(err)
	}
	return d.Comparison.Content.Rows, d.Comparison.Note
}

// In Chromium, the Content table sits on the screen like the other tables: no text clipped,
// the path column kept in view.
func TestContentTableInBrowser(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	results := brokenResults(t)
	html := render(t, results, Options{})
	path := filepath.Join(t.TempDir(), "content.html")
	if err := os.WriteFile(path, html, 0o644); err != nil {
		t.Fatal(err)
	}
	page := browsertest.Open(t, ctx, path, `document.documentElement.dataset.ready === "yes"`)
	for _, width := range []int{1280, 1920} {
		page.SetViewport(width, 1000)
		t.Logf("screenshot: %s", browsertest.SaveArtifact(t, fmt.Sprintf("content-%d.png", width), page.Screenshot()))
		found := false
		for _, b := range browsertest.Eval[[]boxLayout](page, measureBoxes) {
			if !strings.Contains(b.Table, "content-changes") {
				continue
			}
			found = true
			if b.Left < 0 || b.Right > float64(width)+0.5 {
				t.Errorf("%d px: box from %.0f to %.0f px, off the screen", width, b.Left, b.Right)
			}
			for _, h := range b.Headers {
				if h.Need > h.Given+0.5 {
					t.Errorf("%d px: column %q clipped: a cell needs %.0f px, has %.0f", width, h.Title, h.Need, h.Given)
				}
			}
			if b.HasURL && b.StickyLeft > 0.5 && b.ScrollWidth > b.Width+0.5 {
				t.Errorf("%d px: scrolled to the right, the path column is %.0f px from the edge", width, b.StickyLeft)
			}
		}
		if !found {
			t.Errorf("%d px: no Content table on the page", width)
		}
	}
	if p := page.Problems(); len(p) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(p, "\n"))
	}
}
