package report

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/webload/webload/stats"
)

// series is one line of a chart. NaN is a gap (an interval without a transaction has no
// latency, which is not a latency of zero), written as JSON's null for uPlot.
type series []float64

// MarshalJSON writes the values with no more digits than they need, NaN as null.
func (s series) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 8*len(s)+2)
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			b = append(b, "null"...)
			continue
		}
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	return append(b, ']'), nil
}

// timeline is a run's chart over time: latency percentiles on one axis, rates on the other.
type timeline struct {
	// Step is the seconds each point covers: the report's interval times Merged.
	Step float64 `json:"step"`
	// Merged is how many of the report's intervals each point merges (1: as recorded).
	Merged int `json:"merged"`
	// Runs is the number of runs of a --repeat series, each drawn where it ran, with a gap
	// (null in every line) for each pause; 0 for a single run.
	Runs int `json:"runs,omitempty"`
	// T is each point's start, seconds from the start of the run.
	T series `json:"t"`
	// P50..Max are latencies of transactions in ms (NaN where none ended).
	P50 series `json:"p50"`
	P90 series `json:"p90"`
	P99 series `json:"p99"`
	Max series `json:"max"`
	// Requests and Failures are per second: requests that ended, and those that failed.
	Requests series `json:"requests"`
	Failures series `json:"failures"`
	// Queries are the statements per second of the run's databases (--db), absent without.
	Queries series `json:"queries,omitempty"`
	// Planned is a replayed log's requests per second by due time (webload replay), absent
	// for other results.
	Planned series `json:"planned,omitempty"`
}

// errBadInterval says a report with a timeline gives no interval to place it by.
var errBadInterval = errors.New("timeline interval is not a positive number of seconds")

// downsample turns a report's timeline into chart series of at most maxPoints points. A
// longer timeline is cut into groups of k consecutive intervals, k as small as fits, and each
// group becomes one point: rates are its totals over its length, exact; p90, p99 and max are
// the group's worst interval, so a spike of one interval is never averaged away; p50 is the
// intervals' medians weighted by their transactions, a typical value rather than the worst.
func downsample(points []stats.TimelinePoint, interval float64, maxPoints int) (timeline, error) {
	return downsampleRuns([]runPoints{{points: points}}, interval, maxPoints)
}

// runPoints is the timeline of one run of a series, and where it starts on the series' clock.
type runPoints struct {
	points []stats.TimelinePoint
	offset float64 // seconds from the series' start to the run's
}

// downsampleRuns is downsample for the runs of a series: each run's points are merged on their
// own, never across a pause, and between two runs comes a gap point, null in every line, so the
// chart breaks its lines there rather than drawing the pause as a latency or a rate of zero.
// The gap points count towards maxPoints.
func downsampleRuns(runs []runPoints, interval float64, maxPoints int) (timeline, error) {
	runs = slices.DeleteFunc(slices.Clone(runs), func(r runPoints) bool { return len(r.points) == 0 })
	total := 0
	for _, r := range runs {
		total += len(r.points)
	}
	if total == 0 {
		return timeline{Step: interval, Merged: 1}, nil
	}
	if !(interval > 0) || math.IsInf(interval, 0) {
		return timeline{}, errBadInterval
	}
	size := func(k int) int {
		n := len(runs) - 1 // the gaps
		for _, r := range runs {
			n += (len(r.points) + k - 1) / k
		}
		return n
	}
	k := (total + maxPoints - 1) / maxPoints
	for k < total && size(k) > maxPoints {
		k++
	}
	tl := timeline{Step: interval * float64(k), Merged: k}
	if len(runs) > 1 {
		tl.Runs = len(runs)
	}
	for _, s := range []*series{&tl.T, &tl.P50, &tl.P90, &tl.P99, &tl.Max, &tl.Requests, &tl.Failures} {
		*s = make(series, 0, size(k))
	}
	for i, r := range runs {
		if i > 0 {
			// Halfway between the runs, so that time still only grows along the line.
			last := tl.T[len(tl.T)-1]
			tl.T = append(tl.T, round((last+r.offset+r.points[0].Start)/2, 1e3))
			for _, s := range []*series{&tl.P50, &tl.P90, &tl.P99, &tl.Max, &tl.Requests, &tl.Failures} {
				*s = append(*s, math.NaN())
			}
		}
		tl.addRun(r, interval, k)
	}
	return tl, nil
}

// addRun appends one run's points, merged k intervals to a point.
func (tl *timeline) addRun(r runPoints, interval float64, k int) {
	for start := 0; start < len(r.points); start += k {
		span := r.points[start:min(start+k, len(r.points))]
		var requests, failed, hits int64
		var p50sum float64
		p90, p99, top := math.NaN(), math.NaN(), math.NaN()
		for _, p := range span {
			requests += p.Requests
			failed += p.Failed
			if p.Transactions == 0 {
				continue
			}
			hits += p.Transactions
			p50sum += p.P50 * float64(p.Transactions)
			p90, p99, top = nanMax(p90, p.P90), nanMax(p99, p.P99), nanMax(top, p.Max)
		}
		length := interval * float64(len(span))
		tl.T = append(tl.T, round(r.offset+span[0].Start, 1e3))
		tl.Requests = append(tl.Requests, round(float64(requests)/length, 1e3))
		tl.Failures = append(tl.Failures, round(float64(failed)/length, 1e3))
		p50 := math.NaN()
		if hits > 0 {
			p50 = p50sum / float64(hits)
		}
		tl.P50 = append(tl.P50, msRound(p50))
		tl.P90 = append(tl.P90, msRound(p90))
		tl.P99 = append(tl.P99, msRound(p99))
		tl.Max = append(tl.Max, msRound(top))
	}
}

// nanMax is the larger of a and b, where NaN means "nothing yet".
func nanMax(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	return math.Max(a, b)
}

// msRound converts seconds to milliseconds to the microsecond, the histograms' resolution:
// more digits would only make the page larger.
func msRound(s float64) float64 { return round(s*1000, 1e3) }

// round keeps v to 1/scale.
func round(v, scale float64) float64 { return math.Round(v*scale) / scale }
