package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/internal/browsertest"
	"github.com/webload/webload/stats"
)

// savedResult reads a result saved by the stats package's fixtures.
func savedResult(t *testing.T, name string) stats.Report {
	t.Helper()
	rep, err := stats.ReadJSON(filepath.Join("..", "stats", "testdata", "saved", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The ladder chart has a point per step of each ladder, at its users, and none for a result
// that is no ladder; a page without ladders has no such chart.
func TestLadderData(t *testing.T) {
	t.Parallel()
	a, b, plain := savedResult(t, "ladder"), savedResult(t, "ladder-b"), savedResult(t, "closed")
	l := buildLadder([]stats.Report{a, b, plain})
	if l == nil {
		t.Fatal("no ladder data")
	}
	if !slices.Equal(l.Rate.X, series{2, 4, 8}) || !slices.Equal(l.P95.X, series{2, 4, 8}) {
		t.Fatalf("x %v and %v, want the users 2, 4, 8", l.Rate.X, l.P95.X)
	}
	for i, r := range []stats.Report{a, b} {
		for j, s := range r.Steps {
			if got, want := l.Rate.Y[i][j], round(s.TransactionRate, 100); got != want {
				t.Errorf("result %d, %d users: rate %g, want %g", i, s.Run.Users, got, want)
			}
			if got, want := l.P95.Y[i][j], msRound(s.Percentiles.P95); got != want {
				t.Errorf("result %d, %d users: p95 %g ms, want %g", i, s.Run.Users, got, want)
			}
		}
	}
	if slices.ContainsFunc(l.Rate.Y[2], func(v float64) bool { return !math.IsNaN(v) }) {
		t.Errorf("the plain run has points: %v", l.Rate.Y[2])
	}
	if len(l.Tables) != 2 || l.Tables[1].Label != "8 workers" || len(l.Tables[1].Table.Rows) != 3 {
		t.Fatalf("tables %+v, want the two ladders' of 3 steps each", l.Tables)
	}
	if row := l.Tables[0].Table.Rows[2]; row[0].Text != "8" || !strings.HasSuffix(row[7].Text, " ok") {
		t.Errorf("the 8 users' row %v, want 8 users and Little's law ok", row)
	}
	if got, want := ladderNote(&a, "4 workers"), `"4 workers" is a ladder of 3 steps (2, 4, 8 users)`; !strings.HasPrefix(got, want) {
		t.Errorf("summary note %q, want it to begin %q", got, want)
	}
	if buildLadder([]stats.Report{plain}) != nil {
		t.Error("a page without ladders has ladder data")
	}
}

// In the browser, a ladder's page draws two charts, rate and p95 by users, a line per result;
// a page without ladders keeps the section hidden.
func TestLadderChartInBrowser(t *testing.T) {
	t.Parallel()
	if _, err := browsertest.Find(); err != nil {
		t.Skipf("browser test skipped: %v", err)
	}
	ctx := browsertest.Context(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		results []stats.Report
		charts  int
	}{
		{"ladders", []stats.Report{savedResult(t, "ladder"), savedResult(t, "ladder-b")}, 2},
		{"plain", []stats.Report{savedResult(t, "closed")}, 0},
	} {
		path := filepath.Join(dir, tc.name+".html")
		if err := os.WriteFile(path, render(t, tc.results, Options{}), 0o644); err != nil {
			t.Fatal(err)
		}
		page := browsertest.Open(t, ctx, path, `document.documentElement.dataset.ready === "yes"`)
		if n := browsertest.Eval[int](page, `document.querySelectorAll("#ladder .chart").length`); n != tc.charts {
			t.Errorf("%s: %d ladder charts, want %d", tc.name, n, tc.charts)
		}
		if n := browsertest.Eval[int](page, `document.querySelectorAll("#ladder table.ladder-steps tbody tr").length`); n != 3*len(tc.results)*min(tc.charts, 1) {
			t.Errorf("%s: %d step rows", tc.name, n)
		}
		if tc.charts > 0 {
			legend := browsertest.Eval[string](page, `[...document.querySelectorAll("#ladder .u-legend th")].map((th) => th.textContent.trim()).join("|")`)
			if !strings.Contains(legend, "4 workers") || !strings.Contains(legend, "8 workers") {
				t.Errorf("%s: legend %q lacks a result", tc.name, legend)
			}
		}
		if p := page.Problems(); len(p) > 0 {
			t.Errorf("%s: the page reported problems:\n%s", tc.name, strings.Join(p, "\n"))
		}
	}
}
