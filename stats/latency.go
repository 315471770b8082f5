package stats

import (
	"errors"
	"math"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/internal/hdrcodec"
)

// Latency is a distribution of durations that records, adds and answers for itself: a count,
// a sum, the exact extremes and an HdrHistogram of webload's geometry. Values recorded here are
// summed in nanoseconds; parts read back from saved results are summed as the seconds they
// were saved with (means times counts), so that adding saved results gives, to the last digit,
// the figures earlier releases gave. A Latency is one or the other, never both. The zero value
// is empty and makes a sparse histogram at its first value. Not safe for concurrent use.
type Latency struct {
	n        int64
	sum      total
	min, max time.Duration
	h        histogram      // nil until the first value
	hot      *hdr.Histogram // a busy sparse Latency's newest values (see hot.go), or nil
}

// histogram is what dense and sparse HdrHistograms share.
type histogram interface {
	RecordValue(v int64) error
	ValueAtPercentile(percentile float64) int64
	EncodeV2() ([]byte, error)
	TotalCount() int64
	Max() int64
	Mean() float64
	Reset()
}

// denseLatency is a Latency whose histogram is a dense one from the start (184 KiB): faster to
// record into, for the few distributions a run keeps overall.
func denseLatency() Latency { return Latency{h: hdrcodec.NewHistogram()} }

// Record adds one duration. clamped says it lay beyond the histogram's hour and was recorded
// as an hour (see toUnits).
func (l *Latency) Record(d time.Duration) (clamped bool) {
	v, clamped := hdrcodec.ToUnits(d)
	l.recordUnits(d, v)
	return clamped
}

// recordUnits adds d, whose histogram value v the caller has already computed.
func (l *Latency) recordUnits(d time.Duration, v int64) {
	l.time(d)
	if l.h == nil {
		l.h = hdrcodec.NewSparseHistogram()
	}
	if l.hotRecord(v) {
		return
	}
	// The histogram covers the clamped range, so recording cannot fail.
	_ = l.h.RecordValue(v)
}

// time counts d without a histogram, for figures that only have a mean and a maximum.
func (l *Latency) time(d time.Duration) {
	if l.n == 0 || d < l.min {
		l.min = d
	}
	l.n++
	l.sum.d += d
	l.max = max(l.max, d)
}

// reset empties l, keeping its histograms' storage.
func (l *Latency) reset() {
	h, hot := l.h, l.hot
	if h != nil {
		h.Reset()
	}
	if hot != nil {
		hot.Reset()
	}
	*l = Latency{h: h, hot: hot}
}

// addSaved adds a part read from a saved result: n values of the given mean and maximum (seconds)
// and encoded histogram, decoded by a.
func (l *Latency) addSaved(n int64, mean, longest float64, encoded string, a *hdrcodec.HistAdder) error {
	l.n += n
	l.sum.s += mean * float64(n)
	l.max = max(l.max, DurationOf(longest))
	if encoded == "" {
		return nil
	}
	if l.h == nil {
		l.h = hdrcodec.NewSparseHistogram()
	}
	l.settle()
	sparse, ok := l.h.(*hdr.PackedHistogram)
	if !ok {
		return errors.New("add histogram: saved parts go into sparse histograms") // a bug
	}
	return a.AddTo(sparse, encoded)
}

// addShortest keeps a saved part's shortest value (seconds) when it is the shortest yet; n is
// the part's count, which says whether it had values at all.
func (l *Latency) addShortest(n int64, shortest float64) {
	if n > 0 && (l.min == 0 || DurationOf(shortest) < l.min) {
		l.min = DurationOf(shortest)
	}
}

// Count is the number of values.
func (l *Latency) Count() int64 { return l.n }

// Mean is the mean in seconds, 0 without values.
func (l *Latency) Mean() float64 { return l.sum.mean(l.n) }

// Max is the longest value in seconds, exact.
func (l *Latency) Max() float64 { return l.max.Seconds() }

// Min is the shortest value in seconds, exact.
func (l *Latency) Min() float64 { return l.min.Seconds() }

// histMax is the top of the histogram's highest bucket in seconds: the maximum of a figure whose
// exact maximum is not kept.
func (l *Latency) histMax() float64 {
	if l.h == nil {
		return 0
	}
	l.settle()
	return hdrcodec.FromUnits(l.h.Max()).Seconds()
}

// Quantile reads percentile q (0-100) in seconds, capped at top: HdrHistogram answers with the
// top of the value's bucket, which may lie above the exact maximum.
func (l *Latency) Quantile(q, top float64) float64 {
	if l.h == nil {
		return 0
	}
	l.settle()
	return min(hdrcodec.Quantile(l.h, q), top)
}

// percentiles reads the report's percentiles, capped at top.
func (l *Latency) percentiles(top float64) Percentiles {
	p := Percentiles{Max: top}
	p.Quantiles(func(q float64, v *float64) { *v = l.Quantile(q, top) })
	return p
}

// encode gives the histogram's V2 compressed base64 form: through enc, which is made for the
// many small histograms of a long URL list, or through the library when enc is nil. No
// histogram is "".
func (l *Latency) encode(enc *hdrcodec.HistEncoder) string {
	l.settle()
	switch {
	case l.h == nil:
		return ""
	case enc == nil:
		return hdrcodec.Encode(l.h)
	}
	return enc.Encode(l.h)
}

// encodeAll is encode through the library, with an empty histogram for none: the overall
// histograms are always written.
func (l *Latency) encodeAll() string {
	if l.h == nil {
		return hdrcodec.Encode(hdrcodec.NewSparseHistogram())
	}
	l.settle()
	return hdrcodec.Encode(l.h)
}

// DurationOf converts saved seconds back to the duration they were written from: durations are
// whole nanoseconds, so rounding recovers them exactly.
func DurationOf(seconds float64) time.Duration {
	return time.Duration(math.Round(seconds * float64(time.Second)))
}
