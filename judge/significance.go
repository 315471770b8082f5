package judge

import (
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/internal/hdrcodec"
	"gonum.org/v1/gonum/stat"
)

// alpha is the significance level of webload's tests: a change is called real when noise alone
// would produce one as large less than 5 % of the time.
const alpha = 0.05

// welchP is the two-sided p-value of Welch's t-test: do two sets of repeated measurements (one
// figure from each run of a --repeat series) have different means? It needs at least two
// values on each side; ok is false otherwise. Two series without any spread differ for sure
// when their means differ.
func welchP(a, b []float64) (p float64, ok bool) {
	if len(a) < 2 || len(b) < 2 {
		return 0, false
	}
	ma, va := stat.MeanVariance(a, nil)
	mb, vb := stat.MeanVariance(b, nil)
	return welchMoments(int64(len(a)), ma, va, int64(len(b)), mb, vb), true
}

// quantileP is the two-sided p-value of a test that two latency distributions share their
// q-th percentile (0-100): if they do, the same share of each lies above the pooled percentile.
// The shares are compared with the two-proportion z-test. Unlike a rank test, which sees any
// shift of the whole distribution, this judges the percentile a column shows, tail included.
func quantileP(a, b *hdr.Histogram, q float64) (p float64, ok bool) {
	na, nb := float64(a.TotalCount()), float64(b.TotalCount())
	if na == 0 || nb == 0 {
		return 0, false
	}
	pooled := hdrcodec.NewHistogram()
	pooled.Merge(a)
	pooled.Merge(b)
	threshold := pooled.ValueAtPercentile(q)
	ka, kb := float64(countAbove(a, threshold)), float64(countAbove(b, threshold))
	share := (ka + kb) / (na + nb)
	se := math.Sqrt(share * (1 - share) * (1/na + 1/nb))
	if se == 0 {
		return 1, true
	}
	z := (ka/na - kb/nb) / se
	return math.Erfc(math.Abs(z) / math.Sqrt2), true
}

// countAbove counts the values recorded above v.
func countAbove(h *hdr.Histogram, v int64) int64 {
	var n int64
	for _, bar := range h.Distribution() {
		if bar.From > v {
			n += bar.Count
		}
	}
	return n
}
