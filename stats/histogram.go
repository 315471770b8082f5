// Package stats turns a run's results into figures. Its model is built of values that record,
// add and answer for themselves: Latency (a count, a sum, the exact extremes and an HdrHistogram)
// and Tally (requests by outcome under siege's rules), which make up a run's overall, per-URL,
// page, timeline, steady-state, schedule, login and extraction figures. The Recorder fills them from results;
// Combine (a --repeat series) and Merge (the shards of one run) read saved results back into
// them and add them up. Report is their JSON view, made by one function and read back by one.
// The figures a user can name are listed once (Figures), with the optional sections of a result
// that the features' packages own (see sections). The package also writes the JSON and the
// --hdr-log outputs; the text report is package report's, judging results package judge's, and
// the outputs written while a run goes package live's. It has no goroutines and no network; a Recorder is fed from one goroutine.
package stats

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histograms record microseconds: 1 µs to 1 h at 3 significant digits, so any latency a run can
// produce is kept to 0.1 %.
const (
	HistUnit    = time.Microsecond
	HistLowest  = 1
	HistHighest = int64(time.Hour / HistUnit)
	histDigits  = 3
)

func NewHistogram() *hdr.Histogram { return hdr.New(HistLowest, HistHighest, histDigits) }

// newSparseHistogram has the same geometry but grows with the values seen, so a long URL list
// does not cost 180 KiB per URL.
func newSparseHistogram() *hdr.PackedHistogram {
	return hdr.NewPacked(HistLowest, HistHighest, histDigits)
}

// ToUnits converts a duration to histogram units, clamped into the trackable range; clamped
// reports whether the value had to be moved (counted as overflow, never silently).
func ToUnits(d time.Duration) (v int64, clamped bool) {
	v = int64(d / HistUnit)
	switch {
	case v < HistLowest:
		// Sub-microsecond answers exist only on loopback; record them as 1 µs, which is the
		// histogram's resolution, and do not call that an overflow.
		return HistLowest, false
	case v > HistHighest:
		return HistHighest, true
	}
	return v, false
}

// FromUnits converts histogram units back to a duration.
func FromUnits(v int64) time.Duration { return time.Duration(v) * HistUnit }
