package report

import (
	"github.com/webload/webload/stats"
)

// runTimeline is a result's timeline for the chart. A --repeat series is drawn run by run,
// each where it ran on the series' clock, with the pauses between them as gaps.
func runTimeline(r *stats.Report, maxPoints int) (timeline, error) {
	runs, ok := seriesRuns(r)
	if !ok {
		return downsample(r.Timeline, r.TimelineInterval, maxPoints)
	}
	return downsampleRuns(runs, r.TimelineInterval, maxPoints)
}

// seriesRuns places the timelines of a series' runs: at their saved starts, or one after the
// other when a start is missing, and never over the end of the run before (whose last
// interval may reach past its elapsed time). ok is false for a single run, and for a result
// whose runs do not hold its timeline (one saved without them), which is drawn as it is.
func seriesRuns(r *stats.Report) (runs []runPoints, ok bool) {
	if len(r.Repeats) < 2 {
		return nil, false
	}
	n := 0
	for i := range r.Repeats {
		rep := &r.Repeats[i]
		if len(rep.Timeline) > 0 && rep.TimelineInterval != r.TimelineInterval {
			return nil, false
		}
		n += len(rep.Timeline)
	}
	if n != len(r.Timeline) {
		return nil, false
	}
	first := r.Repeats[0].Run.StartedAt
	var offset, end float64 // where the run before started, and where its last interval ended
	for i := range r.Repeats {
		rep := &r.Repeats[i]
		if i > 0 {
			offset += r.Repeats[i-1].ElapsedTime
			if start := rep.Run.StartedAt; !first.IsZero() && !start.IsZero() {
				offset = start.Sub(first).Seconds()
			}
		}
		offset = max(offset, end)
		runs = append(runs, runPoints{points: rep.Timeline, offset: offset})
		if k := len(rep.Timeline); k > 0 {
			end = offset + rep.Timeline[k-1].Start + r.TimelineInterval
		}
	}
	return runs, true
}
