package report

import (
	"errors"
	"math"
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
}

// errBadInterval says a report with a timeline gives no interval to place it by.
var errBadInterval = errors.New("timeline interval is not a positive number of seconds")

// downsample turns a report's timeline into chart series of at most maxPoints points. A
// longer timeline is cut into groups of k consecutive intervals, k as small as fits, and each
// group becomes one point: rates are its totals over its length, exact; p90, p99 and max are
// the group's worst interval, so a spike of one interval is never averaged away; p50 is the
// intervals' medians weighted by their transactions, a typical value rather than the worst.
func downsample(points []stats.TimelinePoint, interval float64, maxPoints int) (timeline, error) {
	if len(points) == 0 {
		return timeline{Step: interval, Merged: 1}, nil
	}
	if !(interval > 0) || math.IsInf(interval, 0) {
		return timeline{}, errBadInterval
	}
	k := (len(points) + maxPoints - 1) / maxPoints
	n := (len(points) + k - 1) / k
	tl := timeline{Step: interval * float64(k), Merged: k}
	for _, s := range []*series{&tl.T, &tl.P50, &tl.P90, &tl.P99, &tl.Max, &tl.Requests, &tl.Failures} {
		*s = make(series, 0, n)
	}
	for start := 0; start < len(points); start += k {
		span := points[start:min(start+k, len(points))]
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
		tl.T = append(tl.T, round(span[0].Start, 1e3))
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
	return tl, nil
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
