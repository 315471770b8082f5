package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/internal/browsertest"
	"github.com/webload/webload/stats"
)

// searched is a saved run with a capacity search's steps, in the order a search measures them.
func searched(t *testing.T, label string, steps ...stats.CapacityStep) stats.Report {
	t.Helper()
	r := savedResult(t, "closed")
	r.Label = label
	r.Capacity = &stats.Capacity{Rate: 150, SLO: []string{"p95<500ms"}, Steps: steps}
	return r
}

var (
	pass100 = stats.CapacityStep{Rate: 100, TransactionRate: 99.5, P95: 0.120, Passed: true}
	pass200 = stats.CapacityStep{Rate: 200, TransactionRate: 198, P95: 0.210, Passed: true}
	fail400 = stats.CapacityStep{Rate: 400, TransactionRate: 260, P95: 2.5, Broke: "p95 2500 ms", EndedEarly: true}
	pass300 = stats.CapacityStep{Rate: 300, TransactionRate: 290, P95: 0.450, Passed: true}
)

func TestCapacityData(t *testing.T) {
	t.Parallel()
	a := searched(t, "old", pass100, pass200, fail400, pass300)
	b := searched(t, "new", pass100, pass200)
	plain := savedResult(t, "closed")
	c := buildCapacity([]stats.Report{a, plain, b})
	if c == nil {
		t.Fatal("no capacity data")
	}
	if !slices.Equal(c.Rate.X, series{100, 200, 300, 400}) {
		t.Fatalf("x %v, want the offered rates 100 to 400 in order", c.Rate.X)
	}
	if !slices.Equal(c.Rate.Y[0], series{99.5, 198, 290, 260}) || c.P95.Y[0][3] != 2500 {
		t.Errorf("old's rates %v and p95 %v", c.Rate.Y[0], c.P95.Y[0])
	}
	if slices.ContainsFunc(c.Rate.Y[1], func(v float64) bool { return !math.IsNaN(v) }) {
		t.Errorf("the plain run has points: %v", c.Rate.Y[1])
	}
	if !math.IsNaN(c.Rate.Y[2][2]) || c.Rate.Y[2][1] != 198 {
		t.Errorf("new's rates %v, want points at 100 and 200 only", c.Rate.Y[2])
	}
	if len(c.Tables) != 2 || c.Tables[0].Label != "old" || len(c.Tables[0].Table.Rows) != 4 {
		t.Fatalf("tables %+v, want old's 4 steps and new's 2", c.Tables)
	}
	if last := c.Tables[0].Table.Rows[3]; !strings.HasPrefix(last[0].Text, "400") || last[4].Text != "failed: p95 2500 ms" {
		t.Errorf("old's last row %v, want the failed 400/s step", last)
	}
	few := stats.CapacityStep{Rate: 10, TransactionRate: 10, P95: 0.01, Inconclusive: "10 transactions, p95 needs 20"}
	if row := buildCapacity([]stats.Report{searched(t, "few", few, pass100)}).Tables[0].Table.Rows[0]; row[4].Text != "inconclusive: 10 transactions, p95 needs 20" {
		t.Errorf("a step too small to judge reads %q", row[4].Text)
	}
	again := stats.CapacityStep{Rate: 100, TransactionRate: 98, P95: 0.130, Passed: true, Again: true}
	cut := stats.CapacityStep{Rate: 400, TransactionRate: 50, P95: 0.01, Partial: true}
	d := buildCapacity([]stats.Report{searched(t, "cut", pass100, again, pass200, cut)})
	if !slices.Equal(d.Rate.X, series{100, 200}) || d.Rate.Y[0][0] != 98 || len(d.Tables[0].Table.Rows) != 4 {
		t.Errorf("a search with a rate measured twice and a partial step: x %v, y %v, %d rows", d.Rate.X, d.Rate.Y[0], len(d.Tables[0].Table.Rows))
	}
	if rows := d.Tables[0].Table.Rows; rows[1][4].Text != "passed (measured again)" || rows[3][4].Text != "partial: the search was interrupted" {
		t.Errorf("verdicts %q and %q", rows[1][4].Text, rows[3][4].Text)
	}
	if buildCapacity([]stats.Report{plain}) != nil {
		t.Error("a page without searches has capacity data")
	}
}

// A repeated search (capacity --repeat) draws one curve from all its searches, a rate at its
// last measurement, and a table per search, named by its place in the series.
func TestCapacitySeriesData(t *testing.T) {
	t.Parallel()
	first := searched(t, "one", pass100, pass200, fail400)
	second := searched(t, "one", pass100, stats.CapacityStep{Rate: 200, TransactionRate: 150, P95: 0.9, Broke: "p95 900 ms"})
	wiki := searched(t, "wiki")
	wiki.Capacity = &stats.Capacity{Rate: 150, SLO: []string{"p95<500ms"},
		Searches: []stats.CapacitySearch{{Rate: 200, Judged: true}, {Rate: 100, Judged: true}}}
	wiki.Repeats = []stats.Report{first, second}
	c := buildCapacity([]stats.Report{wiki})
	if c == nil || len(c.Tables) != 2 || c.Tables[0].Label != "wiki, search 1 of 2" || c.Tables[1].Label != "wiki, search 2 of 2" {
		t.Fatalf("tables %+v, want one per search", c)
	}
	if len(c.Tables[0].Table.Rows) != 3 || len(c.Tables[1].Table.Rows) != 2 {
		t.Errorf("rows %d and %d, want each search's steps", len(c.Tables[0].Table.Rows), len(c.Tables[1].Table.Rows))
	}
	if !slices.Equal(c.Rate.X, series{100, 200, 400}) || c.Rate.Y[0][1] != 150 {
		t.Errorf("x %v, y %v: want one curve, 200/s at the second search's measurement", c.Rate.X, c.Rate.Y[0])
	}
}

// In the browser, a search's page draws rate and p95 by offered rate; a page without one keeps
// the section hidden.
func TestCapacityChartInBrowser(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	dir := t.TempDir()
	for _, p := range []stepsPage{
		{"searches", []stats.Report{searched(t, "old", pass100, pass200, fail400, pass300), searched(t, "new", pass100, pass200)}, 2, 6, []string{"old", "new"}},
		{"plain", []stats.Report{savedResult(t, "closed")}, 0, 0, nil},
	} {
		checkStepsPage(t, ctx, dir, "capacity", "capacity-steps", p)
	}
}
