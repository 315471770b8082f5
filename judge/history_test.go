package judge

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/stats"
)

func TestNewObservationP(t *testing.T) {
	t.Parallel()
	prev := []float64{100, 102, 98, 101, 99} // mean 100, sd 1.58
	tests := []struct {
		name   string
		x      float64
		lo, hi float64
	}{
		// t = 0/…: p = 1.
		{"at the mean", 100, 0.99, 1.0},
		// t = 2/(1.581*sqrt(1.2)) = 1.155 with 4 degrees of freedom: p = 0.312.
		{"within the spread", 102, 0.30, 0.32},
		// t = 10/1.732 = 5.774, 4 df: p = 0.0045.
		{"far outside", 110, 0.004, 0.005},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, ok := newObservationP(prev, tc.x)
			if !ok || p < tc.lo || p > tc.hi {
				t.Errorf("p = %v (ok %v), want in [%v, %v]", p, ok, tc.lo, tc.hi)
			}
		})
	}
	if _, ok := newObservationP([]float64{1}, 2); ok {
		t.Error("one earlier run gave a p-value")
	}
}

func TestTrend(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	var runs []stats.Report
	for i, e := range []float64{10.0, 10.2, 9.9, 10.1, 10.0, 13.0} { // the last night is slow
		r := fakeRun("night", uint64(i), 1000, 100*ms, 100*ms, time.Duration(e*float64(time.Second)))
		r.Run.StartedAt = time.Date(2026, 11, 20+i, 2, 30, 0, 0, time.UTC)
		runs = append(runs, r)
	}
	tr, err := NewTrend(runs, 2)
	if err != nil {
		t.Fatal(err)
	}
	et := tr.Figures[columnIndex("etime")]
	if et.Median != 10.0 || et.Newest != 13.0 || math.Abs(et.Change-0.3) > 1e-9 || et.Verdict != Significant || !et.Worse {
		t.Errorf("elapsed trend %+v", et)
	}
	if la := tr.Figures[columnIndex("la")]; la.Verdict != NoEstimate {
		t.Errorf("load average without server metrics: %+v", la)
	}
	res := tr.CheckLimits([]Limit{{Key: "trate", Max: 0.05}, {Key: "p95", Max: 0.5}})
	if res[0].Passed || !res[1].Passed {
		t.Errorf("limits: %+v", res)
	}
	var b bytes.Buffer
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "ETime s") || !strings.Contains(b.String(), "▁") || !strings.Contains(b.String(), "+30.0%*") {
		t.Errorf("trend text:\n%s", b.String())
	}
	// One run is shown but not judged: a nightly job's first night.
	if one, err := NewTrend(runs[:1], 2); err != nil || one.Figures[columnIndex("etime")].Verdict != NoEstimate {
		t.Errorf("a trend of one run: %v", err)
	}
}

func TestSparkline(t *testing.T) {
	t.Parallel()
	if got := sparkline([]float64{1, 2, 3, 4, 5, 6, 7, 8}); got != "▁▂▃▄▅▆▇█" {
		t.Errorf("sparkline = %q", got)
	}
	// Extreme values overflow the scale; the line must still have one mark per value.
	if got := sparkline([]float64{-1e308, 1e308, 0}); len([]rune(got)) != 3 {
		t.Errorf("extreme sparkline = %q", got)
	}
	if got := sparkline([]float64{5, 5, math.NaN()}); got != "▅▅ " {
		t.Errorf("flat sparkline = %q", got)
	}
}

// Earlier nights that counted the database's queries in another unit than the newest (before
// pg_stat_statements was loaded, say) are left out of the newest's median: the step from
// transactions to statements is no change of the site.
func TestTrendLeavesOutUnlikeCounts(t *testing.T) {
	t.Parallel()
	var runs []stats.Report
	for i, src := range []string{"xact_commit+xact_rollback", "xact_commit+xact_rollback", "xact_commit+xact_rollback",
		"pg_stat_statements.calls", "pg_stat_statements.calls", "pg_stat_statements.calls"} {
		r := loadSaved(t, "closed")
		r.Run.StartedAt = time.Date(2026, 11, 20+i, 2, 30, 0, 0, time.UTC)
		s := postgresSummary(100)
		if src != "xact_commit+xact_rollback" {
			s = postgresSummary(400) // four statements to a transaction
		}
		s.QueriesSource = src
		r.SetDatabases([]dbload.Summary{s})
		runs = append(runs, r)
	}
	for _, tc := range []struct {
		nights  int
		unlike  int
		verdict string
		passed  bool
	}{
		{6, 3, WithinNoise, true}, // two earlier nights count statements as the newest: judged by them
		{4, 3, NoEstimate, true},  // none does: not judged
	} {
		tr, err := NewTrend(runs[:tc.nights], 2)
		if err != nil {
			t.Fatal(err)
		}
		qt := tr.line(stats.FiguresNamed("q/t")[0])
		if qt.Unlike != tc.unlike || tc.nights == 4 && qt.Verdict != tc.verdict {
			t.Errorf("%d nights: q/t trend %+v, want %d unlike", tc.nights, qt, tc.unlike)
		}
		if qt.Median != qt.Newest && tc.nights == 6 {
			t.Errorf("%d nights: median %v of statements, newest %v", tc.nights, qt.Median, qt.Newest)
		}
		v := tr.CheckLimits([]Limit{{Key: "q/t", Max: 0.1}})
		if v[0].Passed != tc.passed {
			t.Errorf("%d nights: %+v", tc.nights, v[0])
		}
		if !slices.ContainsFunc(tr.Notes, func(n string) bool { return strings.Contains(n, "3 earlier results counted another thing") }) {
			t.Errorf("%d nights: notes %q", tc.nights, tr.Notes)
		}
	}
}
