package judge

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

// searchAt is a search whose capacity is rate: rate passed, 5 % above it failed.
func searchAt(rate float64) *stats.Capacity {
	return &stats.Capacity{Rate: rate, SLO: []string{"p95<100ms", "error_rate<1"}, StopReason: stats.StopCompleted, Steps: []stats.CapacityStep{
		{Rate: rate, TransactionRate: rate, P95: 0.05, Passed: true},
		{Rate: rate * 1.05, TransactionRate: rate, P95: 0.5, Broke: "p95 500.000 ms"},
	}}
}

// searchSeries is a repeated search of the given capacities, as capacity --repeat saves it:
// the searches' results combined, each under repeats with its own search.
func searchSeries(t *testing.T, label string, rates ...float64) stats.Report {
	t.Helper()
	var runs []stats.Report
	caps := make([]*stats.Capacity, len(rates))
	for i, r := range rates {
		run := fakeRun(label, uint64(i+1), 500, 20*time.Millisecond, 5*time.Millisecond, 5*time.Second)
		run.Capacity = searchAt(r)
		runs = append(runs, run)
		caps[i] = run.Capacity
	}
	rep, err := stats.Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	c := stats.NewCapacitySeries(caps)
	rep.Capacity = &c
	return rep
}

// A repeated search gives the median of its searches and their range, survives a save, and
// compare judges it by the spread of its searches, as it judges --repeat series of runs: a
// capacity halved beyond the searches' spread fails as significant, one within it does not.
func TestCapacitySeries(t *testing.T) {
	t.Parallel()
	old := searchSeries(t, "old", 29, 33, 31)
	if got, want := old.Capacity.Summary(), "Capacity: 31 req/s, the median of 3 searches (29, 33, 31 req/s; range 29-33 req/s, 13 % of the median)"; got != want {
		t.Errorf("summary %q\nwant    %q", got, want)
	}
	old.Run.Version = "test"
	path := filepath.Join(t.TempDir(), "old.json")
	if err := stats.SaveJSON(path, &old); err != nil {
		t.Fatal(err)
	}
	back, err := stats.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Capacity == nil || back.Capacity.Summary() != old.Capacity.Summary() || len(back.Repeats) != 3 || back.Repeats[2].Capacity.Rate != 31 {
		t.Fatalf("read back %+v", back.Capacity)
	}
	limits, err := ParseLimits("capacity=10%")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		cand    stats.Report
		verdict string
		result  string // in the limit's verdict
	}{
		{"halved", searchSeries(t, "new", 15, 16, 14), Significant, "FAILED (significant"},
		{"within the spread", searchSeries(t, "new", 33, 28, 30), WithinNoise, ": ok"},
		{"more", searchSeries(t, "new", 60, 62, 58), Significant, ": ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmp, err := Compare([]stats.Report{back, tc.cand}, false)
			if err != nil {
				t.Fatal(err)
			}
			cell := cmp.Rows[1].Cells[cmp.columnIndex("capacity")]
			if cell.Verdict != tc.verdict || cell.Spread == 0 || cmp.Rows[1].Runs != 3 {
				t.Errorf("capacity cell %+v, runs %d; want %s", cell, cmp.Rows[1].Runs, tc.verdict)
			}
			if v := cmp.CheckLimits(limits); len(v) != 1 || !strings.Contains(v[0].Text, tc.result) {
				t.Errorf("limit %+v, want %q", v, tc.result)
			}
		})
	}
}

// A search of a series that found nothing counts in the median as none; one that judged no
// step leaves the series unjudged, and a lower bound makes the median one.
func TestCapacitySeriesOutcomes(t *testing.T) {
	t.Parallel()
	none := &stats.Capacity{StopReason: stats.StopCompleted, Steps: []stats.CapacityStep{{Rate: 10, Broke: "p95 2000.000 ms"}}}
	unjudged := &stats.Capacity{StopReason: stats.StopCompleted, Steps: []stats.CapacityStep{{Rate: 10, Inconclusive: "10 transactions, p95 needs 20"}}}
	capped := &stats.Capacity{Rate: 100, Capped: true, StopReason: stats.StopCompleted, Steps: []stats.CapacityStep{{Rate: 100, Passed: true}}}
	cut := &stats.Capacity{Rate: 40, StopReason: stats.StopInterrupted, InterruptedAt: 80, Steps: []stats.CapacityStep{{Rate: 40, Passed: true}, {Rate: 80, Partial: true}}}
	for _, tc := range []struct {
		name   string
		runs   []*stats.Capacity
		want   string
		judged bool
	}{
		{"none found", []*stats.Capacity{searchAt(30), none, searchAt(20)},
			"Capacity: 20 req/s, the median of 3 searches (30, none, 20 req/s; range 0-30 req/s, 150 % of the median)", true},
		{"one unjudged", []*stats.Capacity{searchAt(30), unjudged},
			"Capacity: 15 req/s, the median of 2 searches (30, none judged req/s; range 0-30 req/s, 200 % of the median)", false},
		{"capped", []*stats.Capacity{capped, searchAt(90), capped},
			"Capacity: at least 100 req/s, the median of 3 searches (at least 100, 90, at least 100 req/s; range 90-100 req/s, 10 % of the median)", true},
		{"interrupted", []*stats.Capacity{searchAt(50), cut},
			"Capacity: at least 45 req/s, the median of 2 searches (50, at least 40 req/s; range 40-50 req/s, 22 % of the median); search 2 interrupted at 80 req/s", true},
	} {
		c := stats.NewCapacitySeries(tc.runs)
		if got := c.Summary(); got != tc.want {
			t.Errorf("%s: %q\nwant %q", tc.name, got, tc.want)
		}
		if c.Judged() != tc.judged {
			t.Errorf("%s: judged %v", tc.name, c.Judged())
		}
	}
}
