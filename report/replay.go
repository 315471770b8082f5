package report

import "github.com/webload/webload/stats"

// plannedPerSec is a replayed log's own rate along the timeline: its requests per second by the
// time they were due, to read beside the requests that ended (a stack that keeps up draws the
// two alike, one that falls behind flattens the second). nil for a result that is no replay,
// and for a --repeat series, whose runs the chart draws apart.
func plannedPerSec(r *stats.Report, tl *timeline) series {
	if r.Replay == nil || len(r.Replay.PlannedTimeline) == 0 || tl.Runs > 0 || len(tl.T) == 0 || !(r.TimelineInterval > 0) {
		return nil
	}
	planned, k, total := r.Replay.PlannedTimeline, tl.Merged, len(r.Timeline)
	out := make(series, len(tl.T))
	for i := range tl.T {
		from, to := i*k, min(i*k+k, total) // the result's intervals this point merges
		var n int64
		for j := from; j < min(to, len(planned)); j++ {
			n += planned[j]
		}
		out[i] = round(float64(n)/(r.TimelineInterval*float64(max(to-from, 1))), 1e3)
	}
	return out
}
