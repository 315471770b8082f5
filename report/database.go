package report

import (
	"math"
	"slices"
	"time"

	"github.com/webload/webload/dbload"
)

// queriesPerSec is the statement rate of the run's databases (--db) at each point of tl, to
// draw beside the request rate: each point takes the rates of the databases' intervals it
// overlaps, weighted by the overlap, since the readings' interval need not be the timeline's.
// start is the run's start, which tl's times count from. With several databases the rates add
// up; a point that some database's readings do not cover, or a pause of a series, has none. nil
// when there is nothing to draw.
func queriesPerSec(dbs []dbload.Summary, start time.Time, tl *timeline) series {
	if start.IsZero() || len(tl.T) == 0 || !hasSeries(dbs) {
		return nil
	}
	cursors := make([]rateCursor, len(dbs))
	for k := range dbs {
		cursors[k] = newRateCursor(dbs[k].Series, start)
	}
	out := make(series, len(tl.T))
	for i, from := range tl.T {
		out[i] = math.NaN()
		if i < len(tl.Requests) && math.IsNaN(tl.Requests[i]) {
			continue // a pause between the runs of a series
		}
		sum := 0.0
		for k := range cursors {
			v, ok := cursors[k].rate(from, from+tl.Step)
			if !ok {
				sum = math.NaN()
				break
			}
			sum += v
		}
		out[i] = round(sum, 1e3)
	}
	return out
}

// rateCursor walks a database's intervals along the timeline, whose points come in time
// order: each point looks only at the intervals from the first that ends after its start, so
// an hour of readings on an hour of points costs one pass, not one per point.
type rateCursor struct {
	end, width, qps []float64 // each interval's end in seconds from the run's start, its width and rate
	next            int       // the first interval that may still end after a point's start
}

func newRateCursor(points []dbload.Point, start time.Time) rateCursor {
	points = slices.SortedStableFunc(slices.Values(points), func(a, b dbload.Point) int { return a.At.Compare(b.At) })
	c := rateCursor{end: make([]float64, len(points)), width: make([]float64, len(points)), qps: make([]float64, len(points))}
	for i, p := range points {
		c.end[i], c.width[i], c.qps[i] = p.At.Sub(start).Seconds(), p.Seconds, p.QueriesPerSec
	}
	return c
}

func hasSeries(dbs []dbload.Summary) bool {
	for i := range dbs {
		if len(dbs[i].Series) > 0 {
			return true
		}
	}
	return false
}

// rate is the mean rate of the intervals over [from, to), seconds from the run's start, weighted
// by how much of it each covers; ok is false when none covers any of it. from never goes back.
func (c *rateCursor) rate(from, to float64) (float64, bool) {
	for c.next < len(c.end) && c.end[c.next] <= from {
		c.next++
	}
	var weighted, covered float64
	for i := c.next; i < len(c.end) && c.end[i]-c.width[i] < to; i++ {
		if o := min(c.end[i], to) - max(c.end[i]-c.width[i], from); o > 0 {
			weighted += c.qps[i] * o
			covered += o
		}
	}
	if covered <= 0 {
		return 0, false
	}
	return weighted / covered, true
}
