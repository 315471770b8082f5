package stats

import (
	"errors"
	"fmt"
	"math"

	"github.com/webload/webload/internal/hdrcodec"
)

// ErrNothingToCombine is returned by Combine for an empty list.
var ErrNothingToCombine = errors.New("no results to combine")

// Combine builds the report of a series of runs made one after the other (a --repeat series):
// counts are summed, elapsed times add up so rates are totals over the whole time measured,
// means are weighted by their counts, and percentiles come from the merged histograms, which is
// exact: the same as one histogram holding every sample. The timelines follow one another. The
// runs are kept in Repeats.
func Combine(runs []Report) (Report, error) {
	if len(runs) == 0 {
		return Report{}, ErrNothingToCombine
	}
	first := &runs[0]
	for i := range runs {
		if len(runs[i].URLs) != len(first.URLs) {
			return Report{}, fmt.Errorf("combine: run %d has %d URLs, run 1 has %d", i+1, len(runs[i].URLs), len(first.URLs))
		}
	}
	f := model{label: first.Label, run: first.Run, interval: first.TimelineInterval, repeats: runs}
	a := hdrcodec.NewHistAdder()
	var offset float64
	for i := range runs {
		r := &runs[i]
		after := func(_ int, p *TimelinePoint) *bucket {
			f.timeline = append(f.timeline, bucket{start: p.Start + offset})
			return &f.timeline[len(f.timeline)-1]
		}
		if err := f.load(r, a, after); err != nil {
			return Report{}, fmt.Errorf("combine run %d: %w", i+1, err)
		}
		f.elapsed += r.ElapsedTime
		offset += r.ElapsedTime
	}
	// A run that ended early ended the series: its reason, and gate, are the series'.
	f.run.StopReason, f.run.Abort = earlyStop(runs)
	// The runs' schedules and ramps each had their own moments; a series has neither.
	f.schedule = nil
	f.users = seriesUsers(runs)
	rows, err := urlRows(runs, a)
	if err != nil {
		return Report{}, fmt.Errorf("combine %w", err)
	}
	rep := f.report(nil)
	rep.URLs = rows
	addSections(&rep, runs, false)
	return rep, nil
}

// seriesUsers combines the per-user fairness of runs made one after the other by the same users.
func seriesUsers(runs []Report) UserStats {
	var out UserStats
	for _, r := range runs {
		out.Count = max(out.Count, r.Users.Count)
		out.TransactionsMean += r.Users.TransactionsMean
		// Runs are independent, so the variances of per-user counts add up.
		out.TransactionsStddev += r.Users.TransactionsStddev * r.Users.TransactionsStddev
	}
	out.TransactionsStddev = math.Sqrt(out.TransactionsStddev)
	return out
}
