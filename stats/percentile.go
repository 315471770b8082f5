package stats

// Percentile reads the URL's latency percentile p (0-100; 100 is the maximum) in seconds. ok is
// false for a percentile not kept per URL: keeping one more is a field in URLStats and a line in
// its quantiles list, and the gates, the per-URL tables and the model then take it.
func (u *URLStats) Percentile(p float64) (v float64, ok bool) {
	if p == 100 {
		return u.Max, true
	}
	u.quantiles(func(q float64, field *float64) {
		if q == p {
			v, ok = *field, true
		}
	})
	return v, ok
}

// EachPercentile calls f with each percentile (0-100) kept per URL and its value in seconds, in
// the order of the list, for tables that show them all.
func (u *URLStats) EachPercentile(f func(q, v float64)) {
	u.quantiles(func(q float64, v *float64) { f(q, *v) })
}

// at reads the run's latency percentile p (0-100; 100 is the maximum) in seconds; ok is false
// for a percentile the run does not keep.
func (p *Percentiles) at(q float64) (v float64, ok bool) {
	if q == 100 {
		return p.Max, true
	}
	p.quantiles(func(k float64, field *float64) {
		if k == q {
			v, ok = *field, true
		}
	})
	return v, ok
}
