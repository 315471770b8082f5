package stats

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

// quantiles calls f with each percentile (0-100) of an interval and its field.
func (p *TimelinePoint) quantiles(f func(q float64, v *float64)) {
	f(50, &p.P50)
	f(90, &p.P90)
	f(99, &p.P99)
}
