package stats

// Percentile reads the URL's latency percentile p (0-100; 100 is the maximum) in seconds. ok is
// false for a percentile not kept per URL: keeping one more takes a field in URLStats and a case
// here, and the gates then take it per URL.
func (u *URLStats) Percentile(p float64) (v float64, ok bool) {
	switch p {
	case 50:
		return u.P50, true
	case 95:
		return u.P95, true
	case 99:
		return u.P99, true
	case 100:
		return u.Max, true
	}
	return 0, false
}

// at reads the run's latency percentile p (0-100; 100 is the maximum) in seconds; ok is false
// for a percentile the run does not keep.
func (p *Percentiles) at(q float64) (v float64, ok bool) {
	switch q {
	case 50:
		return p.P50, true
	case 90:
		return p.P90, true
	case 95:
		return p.P95, true
	case 99:
		return p.P99, true
	case 99.9:
		return p.P999, true
	case 100:
		return p.Max, true
	}
	return 0, false
}
