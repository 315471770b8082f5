package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/internal/browsertest"
	"github.com/webload/webload/stats"
)

// The timeline of a run with --db draws the database's queries/s beside the request rate, and
// one without draws no such line.
func TestDatabaseLineInBrowser(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	with := small("with", 1)
	with.Run.StartedAt = dbStart
	q := int64(1000)
	with.SetDatabases([]dbload.Summary{{Kind: dbload.KindMySQL, Samples: 3, Seconds: 20, Queries: &q, QueriesPerSec: 50,
		Series: points([3]float64{10, 10, 40}, [3]float64{20, 10, 60})}})
	path := filepath.Join(t.TempDir(), "db.html")
	if err := os.WriteFile(path, render(t, []stats.Report{with, small("without", 2)}, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	page := browsertest.Open(t, ctx, path, `document.documentElement.dataset.ready === "yes"`)
	legends := browsertest.Eval[[]string](page, `[...document.querySelectorAll("#timelines .run")].map(
		(run) => [...run.querySelectorAll(".u-legend th")].map((th) => th.textContent.trim()).join("|"))`)
	if len(legends) != 2 || !slices.Contains(strings.Split(legends[0], "|"), "db queries/s") ||
		strings.Contains(legends[1], "db queries/s") {
		t.Errorf("timeline legends %q; want db queries/s in the first run's alone", legends)
	}
	if p := page.Problems(); len(p) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(p, "\n"))
	}
}
