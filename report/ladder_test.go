package report

import (
	"math"
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
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	dir := t.TempDir()
	for _, p := range []stepsPage{
		{"ladders", []stats.Report{savedResult(t, "ladder"), savedResult(t, "ladder-b")}, 2, 6, []string{"4 workers", "8 workers"}},
		{"plain", []stats.Report{savedResult(t, "closed")}, 0, 0, nil},
	} {
		checkStepsPage(t, ctx, dir, "ladder", "ladder-steps", p)
	}
}
