// Package hdrcodec is how a result keeps an HdrHistogram of latencies: its unit and range, its
// compact encoding in a saved result, and adding encoded histograms without decoding them into
// full ones, which is what keeps merging shards and loading a long history cheap.
package hdrcodec

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
func NewSparseHistogram() *hdr.PackedHistogram {
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
