package report

import (
	"math"
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
	out := make(series, len(tl.T))
	for i, from := range tl.T {
		out[i] = math.NaN()
		if i < len(tl.Requests) && math.IsNaN(tl.Requests[i]) {
			continue // a pause between the runs of a series
		}
		sum := 0.0
		for k := range dbs {
			v, ok := overlapRate(dbs[k].Series, start, from, from+tl.Step)
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

func hasSeries(dbs []dbload.Summary) bool {
	for i := range dbs {
		if len(dbs[i].Series) > 0 {
			return true
		}
	}
	return false
}

// overlapRate is the mean rate of the points over [from, to), seconds from start, weighted by
// how much of it each covers; ok is false when none covers any of it.
func overlapRate(points []dbload.Point, start time.Time, from, to float64) (float64, bool) {
	var weighted, covered float64
	for _, p := range points {
		end := p.At.Sub(start).Seconds()
		if o := min(end, to) - max(end-p.Seconds, from); o > 0 {
			weighted += p.QueriesPerSec * o
			covered += o
		}
	}
	if covered <= 0 {
		return 0, false
	}
	return weighted / covered, true
}
