package stats

import "math"

// SizeStats are the moments of one URL's response body sizes, decoded (after undoing their
// Content-Encoding), over the responses it got: what compare needs to tell a page that now
// answers with a different size from one whose size varies from request to request. Moments
// add exactly across --repeat runs and shards, in 40 bytes per URL, where a histogram of sizes
// would cost kilobytes per URL of a long list. Sizes are bytes.
type SizeStats struct {
	Count int64 `json:"count"`
	Sum   int64 `json:"sum"`
	// SumSquares is the sum of the squared sizes; a float, since a million 4 MB bodies would
	// overflow an integer. Rounding keeps it to 16 significant digits.
	SumSquares float64 `json:"sum_squares"`
	Min        int64   `json:"min"`
	Max        int64   `json:"max"`
}

// Record adds one body of size n.
func (s *SizeStats) Record(n int64) {
	if s.Count == 0 || n < s.Min {
		s.Min = n
	}
	s.Max = max(s.Max, n)
	s.Count++
	s.Sum += n
	s.SumSquares += float64(n) * float64(n)
}

// add adds o's sizes.
func (s *SizeStats) add(o *SizeStats) {
	if o == nil || o.Count == 0 {
		return
	}
	if s.Count == 0 || o.Min < s.Min {
		s.Min = o.Min
	}
	s.Max = max(s.Max, o.Max)
	s.Count += o.Count
	s.Sum += o.Sum
	s.SumSquares += o.SumSquares
}

// view is the moments as the JSON writes them: nil for none, so results without sizes (those
// saved before sizes were recorded, and URLs no response reached) stay as they were.
func (s *SizeStats) view() *SizeStats {
	if s.Count == 0 {
		return nil
	}
	v := *s
	return &v
}

// Mean is the mean size in bytes; 0 for none.
func (s *SizeStats) Mean() float64 {
	if s == nil || s.Count == 0 {
		return 0
	}
	return float64(s.Sum) / float64(s.Count)
}

// Variance is the sample variance (n-1) of the sizes, in bytes squared; 0 with fewer than two.
func (s *SizeStats) Variance() float64 {
	if s == nil || s.Count < 2 {
		return 0
	}
	n := float64(s.Count)
	mean := float64(s.Sum) / n
	// Clamped: for sizes that never vary, rounding can leave a tiny negative.
	return math.Max(0, (s.SumSquares-n*mean*mean)/(n-1))
}
