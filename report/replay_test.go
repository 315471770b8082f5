package report

import (
	"slices"
	"testing"

	"github.com/webload/webload/stats"
)

// A replay's timeline carries the log's planned rate, point by point as the chart merges the
// result's intervals; other results carry none.
func TestPlannedPerSec(t *testing.T) {
	t.Parallel()
	r := stats.Report{TimelineInterval: 0.5, Replay: &stats.Replay{PlannedTimeline: []int64{30, 0, 0, 0, 0, 30}}}
	for i := range 6 {
		r.Timeline = append(r.Timeline, stats.TimelinePoint{Start: float64(i) * 0.5, Requests: 1})
	}
	tests := []struct {
		name      string
		maxPoints int
		want      series
	}{
		{"as recorded", 100, series{60, 0, 0, 0, 0, 60}},
		{"two intervals a point", 3, series{30, 0, 30}},
		{"three intervals a point", 2, series{20, 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := runTimeline(&r, tt.maxPoints)
			if err != nil {
				t.Fatal(err)
			}
			if got := plannedPerSec(&r, &tl); !slices.Equal(got, tt.want) {
				t.Errorf("planned/s %v, want %v", got, tt.want)
			}
		})
	}
	plain := r
	plain.Replay = nil
	tl, _ := runTimeline(&plain, 100)
	if got := plannedPerSec(&plain, &tl); got != nil {
		t.Errorf("a run without replay: %v", got)
	}
}
