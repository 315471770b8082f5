package stats

// percentiler is what dense and sparse histograms share for reading.
type percentiler interface {
	ValueAtPercentile(percentile float64) int64
}

// quantile reads percentile q (0-100) in seconds. HdrHistogram answers with the top of the
// value's bucket, so callers cap it at the exact maximum they track.
func quantile(h percentiler, q float64) float64 {
	return fromUnits(h.ValueAtPercentile(q)).Seconds()
}

// encoder is what dense and sparse histograms share for saving.
type encoder interface {
	EncodeV2() ([]byte, error)
}

// encode gives a histogram's V2 compressed base64 form (the format other HdrHistogram tools
// read); the encoder fails only on a histogram it could not have built, so an error leaves the
// field empty.
func encode(h encoder) string {
	b, err := h.EncodeV2()
	if err != nil {
		return ""
	}
	return string(b)
}

// percentiles reads the report's percentiles in seconds, capped at the exact maximum.
func percentiles(h percentiler, top float64) Percentiles {
	return Percentiles{
		P50:  min(quantile(h, 50), top),
		P90:  min(quantile(h, 90), top),
		P95:  min(quantile(h, 95), top),
		P99:  min(quantile(h, 99), top),
		P999: min(quantile(h, 99.9), top),
		Max:  top,
	}
}
