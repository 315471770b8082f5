package stats

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// bucket holds the results of one stretch of a run: a timeline interval, or the steady state
// after a ramp. Its histogram is sparse, so an hour of one-second buckets stays small.
type bucket struct {
	requests, hits, successes, failures, bytes int64
	maxHit                                     time.Duration
	hist                                       *hdr.PackedHistogram
}

func (b *bucket) addHit(rt time.Duration, v int64) {
	b.hits++
	b.maxHit = max(b.maxHit, rt)
	if b.hist == nil {
		b.hist = newSparseHistogram()
	}
	_ = b.hist.RecordValue(v)
}

// TimelinePoint is one interval of the run, by the time requests ended. Times are seconds.
type TimelinePoint struct {
	// Start is the interval's start, from the start of the run.
	Start        float64 `json:"start"`
	Requests     int64   `json:"requests"`
	Transactions int64   `json:"transactions"`
	Successful   int64   `json:"successful"`
	Failed       int64   `json:"failed"`
	Bytes        int64   `json:"bytes"`
	P50          float64 `json:"p50"`
	P90          float64 `json:"p90"`
	P99          float64 `json:"p99"`
	Max          float64 `json:"max"`
	// Histogram is the interval's response times in microseconds (HdrHistogram V2, base64).
	Histogram string `json:"histogram,omitempty"`
}

func (b *bucket) point(start time.Duration) TimelinePoint {
	p := TimelinePoint{
		Start:        start.Seconds(),
		Requests:     b.requests,
		Transactions: b.hits,
		Successful:   b.successes,
		Failed:       b.failures,
		Bytes:        b.bytes,
		Max:          b.maxHit.Seconds(),
	}
	if b.hist != nil {
		p.P50 = min(quantile(b.hist, 50), p.Max)
		p.P90 = min(quantile(b.hist, 90), p.Max)
		p.P99 = min(quantile(b.hist, 99), p.Max)
		p.Histogram = encode(b.hist)
	}
	return p
}
