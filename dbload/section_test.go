package dbload

import (
	"slices"
	"testing"

	"github.com/webload/webload/section"
)

// Every figure the database's section offers is measured on a reading that has every
// counter, and none without a reading or before the run's transactions are known; a figure
// listed but not read (a name Value does not know) would pass for "not measured" forever.
func TestSectionFiguresMeasured(t *testing.T) {
	t.Parallel()
	n := func(v int64) *int64 { return &v }
	hit := 99.5
	full := Summaries{{Samples: 2, Queries: n(1000), QueriesSource: "Questions", QueriesPerSec: 100, SlowQueries: n(2),
		RowsRead: n(5000), BufferHitRatio: &hit, Deadlocks: n(1)}}
	run := section.Run{Transactions: 100, ElapsedTime: 10}
	want := map[string]float64{"qps": 100, "q/t": 10, "slow": 2, "rows/t": 50, "buffer_hit_ratio": 99.5, "deadlocks": 1}
	for _, f := range Figures {
		got, ok := full.Value(f.Name, run)
		if w, listed := want[f.Name]; !ok || !listed || got != w {
			t.Errorf("%s = %v, %v; want %v", f.Name, got, ok, want[f.Name])
		}
		if _, ok := (Summaries{}).Value(f.Name, run); ok {
			t.Errorf("%s measured without a database", f.Name)
		}
	}
	if len(want) != len(Figures) {
		t.Errorf("%d figures, %d checked", len(Figures), len(want))
	}
	if _, ok := full.Value("q/t", section.Run{}); ok {
		t.Error("q/t measured without transactions")
	}
	if unit, src := full.Counts(); unit != "statements" || src != "Questions" {
		t.Errorf("counts %q from %q", unit, src)
	}
	lines := full.Lines(run)
	if i := slices.IndexFunc(lines, func(l section.Line) bool { return l.Label == "DB queries:" }); i < 0 {
		t.Errorf("no DB queries line in %q", lines)
	}
}
