package stats

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/internal/hdrcodec"
)

// Distribution is a decoded latency histogram (Report.Histogram or any of its kin), read by
// percentile. It lets other packages draw a saved result's distribution without importing
// HdrHistogram themselves. It is not safe for concurrent use.
type Distribution struct {
	h *hdr.Histogram
}

// DecodeDistribution decodes an encoded histogram; an empty encoding is an empty distribution.
func DecodeDistribution(encoded string) (*Distribution, error) {
	h, err := DecodeHistogram(encoded)
	if err != nil {
		return nil, err // it says it was decoding a histogram
	}
	return &Distribution{h: h}, nil
}

// Count is the number of values the distribution holds.
func (d *Distribution) Count() int64 { return d.h.TotalCount() }

// Quantiles reads the distribution at each percentile (0-100), in seconds, in the order given.
// An empty distribution reads as zeros.
func (d *Distribution) Quantiles(percentiles []float64) []float64 {
	vals := d.h.ValueAtPercentilesSlice(percentiles)
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = hdrcodec.FromUnits(v).Seconds()
	}
	return out
}

func DecodeHistogram(encoded string) (*hdr.Histogram, error) {
	h := hdrcodec.NewHistogram()
	return h, hdrcodec.MergeInto(h, encoded)
}
