package stats

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/webload/webload/internal/hdrcodec"
)

// Percentile reads the URL's latency percentile p (0-100; 100 is the maximum) in seconds. ok is
// false for a percentile not kept per URL: keeping one more is a field in URLStats and a line in
// its quantiles list, and the gates, the per-URL tables and the model then take it. Any other
// percentile is read from the URL's histogram (see percentileOf).
func (u *URLStats) Percentile(p float64) (v float64, ok bool) {
	if p == 100 {
		return u.Max, true
	}
	u.Quantiles(func(q float64, field *float64) {
		if q == p {
			v, ok = *field, true
		}
	})
	return v, ok
}

// EachPercentile calls f with each percentile (0-100) kept per URL and its value in seconds, in
// the order of the list, for tables that show them all.
func (u *URLStats) EachPercentile(f func(q, v float64)) {
	u.Quantiles(func(q float64, v *float64) { f(q, *v) })
}

// at reads the run's latency percentile p (0-100; 100 is the maximum) in seconds; ok is false
// for a percentile the run does not keep.
func (p *Percentiles) at(q float64) (v float64, ok bool) {
	if q == 100 {
		return p.Max, true
	}
	p.Quantiles(func(k float64, field *float64) {
		if k == q {
			v, ok = *field, true
		}
	})
	return v, ok
}

// runPercentile is the run's percentile q (0 < q < 100) in seconds: the field that keeps it, or
// else read from the run's histogram as the recorder reads the fields.
func runPercentile(r *Report, q float64) (float64, bool) {
	if v, ok := r.Percentiles.at(q); ok {
		return v, true
	}
	return PercentileOf(r.Histogram, r.Transactions, r.Percentiles.Max, q)
}

// urlPercentile is runPercentile for one URL.
func urlPercentile(u *URLStats, q float64) (float64, bool) {
	if v, ok := u.Percentile(q); ok {
		return v, true
	}
	return PercentileOf(u.Histogram, u.Hits, u.Max, q)
}

// PercentileOf reads percentile q in seconds from an encoded latency histogram of n
// transactions whose exact longest is top, capped at top as the recorder caps the percentiles
// it keeps (Latency.Quantile), so that a percentile read here equals the one a field would hold.
// A histogram of no transaction reads 0, as the fields do; ok is false when the transactions
// have no histogram to read (a result saved without one, or a corrupt one).
func PercentileOf(encoded string, n int64, top, q float64) (float64, bool) {
	if n == 0 {
		return 0, true
	}
	if encoded == "" {
		return 0, false
	}
	h, err := hdrcodec.DecodeOurs(encoded)
	if err != nil {
		return 0, false
	}
	return CappedQuantile(h, q, top), true
}

// CappedQuantile reads percentile q of h in seconds, capped at top, the exact longest, when
// that is known (above 0).
func CappedQuantile(h hdrcodec.Percentiler, q, top float64) float64 {
	v := hdrcodec.Quantile(h, q)
	if top > 0 {
		v = min(v, top)
	}
	return v
}

// percentileForm is how p(N) is written, for messages.
const percentileForm = "p(N)"

// ParsePercentileName reads a percentile written as k6's thresholds write it, p(N) with
// 0 < N <= 100 (p(95), p(99.5), p(99.99)), in any case; form is false for any other name. N is
// digits with at most one decimal point: no sign, exponent or spaces.
func ParsePercentileName(name string) (q float64, form bool, err error) {
	name = strings.ToLower(name)
	if !strings.HasPrefix(name, "p(") {
		return 0, false, nil
	}
	inner, closed := strings.CutSuffix(name[2:], ")")
	if !closed {
		return 0, true, fmt.Errorf("%s: expected ) after the percentile", name)
	}
	return ParsePercentileNumber(inner)
}

// ParsePercentileNumber reads the N of p(N).
func ParsePercentileNumber(n string) (q float64, form bool, err error) {
	if strings.Trim(n, "0123456789.") != "" || strings.Trim(n, ".") == "" || strings.Count(n, ".") > 1 {
		return 0, true, fmt.Errorf("p(%s): want a percentile such as p(99.5)", n)
	}
	q, err = strconv.ParseFloat(n, 64)
	if err != nil || !(q > 0 && q <= 100) {
		return 0, true, fmt.Errorf("p(%s): a percentile is above 0 and at most 100", n)
	}
	return q, true, nil
}

// percentileName is the canonical name of percentile q: the fixed name when the list has one
// (p95, p99.9, max), else p(N) with N as short as it reads back exactly.
func percentileName(q float64) string {
	for _, f := range Figures {
		if f.Percentile == q {
			return f.Name
		}
	}
	return "p(" + strconv.FormatFloat(q, 'f', -1, 64) + ")"
}

// lookupPercentile finds the figure of a name written p(N): the list's own for the percentiles
// it names (p(95) is p95, p(100) is max), else one made for N.
func lookupPercentile(name string) (Figure, bool) {
	q, form, err := ParsePercentileName(name)
	if !form || err != nil {
		return Figure{}, false
	}
	name = percentileName(q)
	if f, ok := listedFigure(name); ok {
		return f, true
	}
	return percentileFigure(name, q), true
}

// NearPercentile is the p(N) a name such as p75 or p99.5 means, for the message that refuses
// it: written without parentheses, a percentile the list does not name could as well be a typo
// of one it does (p96 for p95), and p999 could mean 99.9. "" for any other name.
func NearPercentile(name string) string {
	name = strings.ToLower(name)
	if len(name) < 2 || name[0] != 'p' {
		return ""
	}
	if _, _, err := ParsePercentileNumber(name[1:]); err != nil {
		return ""
	}
	return "p(" + name[1:] + ")"
}
