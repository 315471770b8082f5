package judge

import (
	"strings"
	"testing"

	"github.com/webload/webload/stats"
)

// A history that mixes kinds of runs (a capacity search's best step, a ladder, a replay beside
// plain runs) is judged as it is, with a note naming the results unlike the newest: their
// figures measure another load, and a change point at the switch is no change of the stack.
func TestTrendNotesOtherKindsOfRun(t *testing.T) {
	t.Parallel()
	replayed := loadSaved(t, "closed")
	replayed.Replay = &stats.Replay{Planned: 10}
	for _, tc := range []struct {
		name string
		runs []stats.Report
		want string // "" for no note
	}{
		{"runs alike", []stats.Report{loadSaved(t, "closed"), loadSaved(t, "open"), loadSaved(t, "closed")}, ""},
		{"capacity and ladder before a run", []stats.Report{loadSaved(t, "capacity"), loadSaved(t, "ladder"), loadSaved(t, "closed"), loadSaved(t, "closed")},
			"2 of the 3 earlier results are not a run like the newest (1 capacity search, 1 ladder): their figures measure another load"},
		{"a replay after runs", []stats.Report{loadSaved(t, "closed"), loadSaved(t, "closed"), replayed},
			"2 of the 2 earlier results are not a replay like the newest (2 runs): their figures measure another load"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr, err := NewTrend(tc.runs, 2)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, n := range tr.Notes {
				if strings.Contains(n, "another load") {
					got = n
				}
			}
			if got != tc.want {
				t.Errorf("note %q, want %q (notes %q)", got, tc.want, tr.Notes)
			}
		})
	}
}
