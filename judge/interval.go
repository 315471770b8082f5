package judge

import (
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/gonum/stat/distuv"
)

// interval is a 95 % confidence interval of a figure, in histogram units.
type interval struct{ lo, hi float64 }

// bounded tells whether both ends of the interval are finite: a percentile of a few requests
// may be bounded on one side, or none (a single request's median).
func (a interval) bounded() bool {
	return !math.IsInf(a.lo, 0) && !math.IsInf(a.hi, 0) && !math.IsNaN(a.lo) && !math.IsNaN(a.hi)
}

// apart tells whether two intervals do not overlap: then the figures differ whatever a p-value
// says, and the change is never called noise.
func (a interval) apart(b interval) bool { return a.hi < b.lo || b.hi < a.lo }

// meanTest is Welch's t-test on the per-request values two latency histograms hold (every
// transaction, at the histogram's 3 significant digits): is the mean response time different?
// It reads the bucket counts, never expands samples, so millions of requests cost what a few
// thousand buckets do. It also gives each mean's 95 % interval. ok is false when a side has
// fewer than two values.
func meanTest(a, b *hdr.Histogram) (p float64, ia, ib interval, ok bool) {
	ma, va, na := moments(a)
	mb, vb, nb := moments(b)
	if na < 2 || nb < 2 {
		return 0, ia, ib, false
	}
	sa, sb := va/na, vb/nb
	ia, ib = meanInterval(ma, sa, na), meanInterval(mb, sb, nb)
	if sa+sb == 0 {
		if ma == mb {
			return 1, ia, ib, true
		}
		return 0, ia, ib, true
	}
	t := (mb - ma) / math.Sqrt(sa+sb)
	df := (sa + sb) * (sa + sb) / (sa*sa/(na-1) + sb*sb/(nb-1))
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t)), ia, ib, true
}

// moments are the count, mean and sample variance of the values in h, each bucket counted at
// its middle.
func moments(h *hdr.Histogram) (mean, variance, n float64) {
	n = float64(h.TotalCount())
	if n < 2 {
		return h.Mean(), 0, n
	}
	sd := h.StdDev() // of the population; Bessel's correction below
	return h.Mean(), sd * sd * n / (n - 1), n
}

func meanInterval(mean, se2, n float64) interval {
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1-alpha/2) * math.Sqrt(se2)
	return interval{mean - half, mean + half}
}

// percentileInterval is the exact distribution-free 95 % interval of the q-th percentile
// (0-100) of the population h was drawn from: between the order statistics of ranks r and s,
// chosen from the binomial distribution of how many of n values fall below the percentile.
// Where the interval would reach beyond the sample (few values, a high percentile) it is
// unbounded on that side: 40 values cannot bound a p99 from above. Bounds take the whole width
// of their bucket, so the histogram's resolution widens the interval rather than narrowing it.
func percentileInterval(h *hdr.Histogram, q float64) (interval, bool) {
	n := h.TotalCount()
	if n == 0 || q <= 0 || q >= 100 {
		return interval{}, false
	}
	bin := distuv.Binomial{N: float64(n), P: q / 100}
	r := binomialQuantile(bin, n, alpha/2)
	s := binomialQuantile(bin, n, 1-alpha/2) + 1
	iv := interval{math.Inf(-1), math.Inf(1)}
	var seen int64
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		if r >= 1 && seen < r && seen+bar.Count >= r {
			iv.lo = float64(bar.From)
		}
		seen += bar.Count
		if s <= n && seen >= s {
			iv.hi = float64(bar.To)
			break
		}
	}
	return iv, true
}

// binomialQuantile is the smallest k in [0, n] whose cumulative probability reaches p, found by
// bisection: the distribution of millions of trials costs about 20 evaluations.
func binomialQuantile(b distuv.Binomial, n int64, p float64) int64 {
	lo, hi := int64(0), n
	for lo < hi {
		mid := lo + (hi-lo)/2
		if b.CDF(float64(mid)) >= p {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// rangesApart tells whether one run's slowest request was faster than the other's median: the
// runs hardly share a value. p is the chance of that (either way round) when both runs come from
// one distribution, exactly: all na values of a lie below the k-th smallest of b's nb values
// (k = its median's rank) in C(na+k-1, na) of the C(na+nb, na) equally likely orders. It is
// small for all but a handful of requests: 0.14 for 4 against 4, 1e-14 for 50 against 50.
func rangesApart(a, b *hdr.Histogram) (apart bool, p float64) {
	na, nb := a.TotalCount(), b.TotalCount()
	if na == 0 || nb == 0 {
		return false, 1
	}
	below := func(n, m int64) float64 { // n values all below the median of m others
		k := float64((m + 1) / 2)
		return math.Exp(logChoose(float64(n)+k-1, float64(n)) - logChoose(float64(n+m), float64(n)))
	}
	apart = a.Max() < b.ValueAtPercentile(50) || b.Max() < a.ValueAtPercentile(50)
	return apart, math.Min(1, below(na, nb)+below(nb, na))
}

func logChoose(n, k float64) float64 {
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(k + 1)
	c, _ := math.Lgamma(n - k + 1)
	return a - b - c
}

// zPower is z(0.975) + z(0.8) for the two-sided 5 % level and the 80 % power that webload's
// sample-size suggestions aim at.
const zPower = 1.959963984540054 + 0.8416212335729143

// repeatsNeeded is how many runs on each side a two-sample t-test needs to find a change of
// delta at the 5 % level with 80 % power, when runs vary by the standard deviations sdA and sdB:
// n = 2 (z(0.975) + z(0.8))² s² / delta² + z(0.975)²/4, s² the mean of the two variances (the
// last term is Guenther's correction for estimating s from the runs). At least have+1, at
// most 1000.
func repeatsNeeded(sdA, sdB, delta float64, have int) int {
	s2 := (sdA*sdA + sdB*sdB) / 2
	z := distuv.UnitNormal.Quantile(1 - alpha/2)
	n := 2*zPower*zPower*s2/(delta*delta) + z*z/4
	if math.IsNaN(n) || n > 1000 {
		return 1000
	}
	return max(int(math.Ceil(n)), have+1)
}

// requestsFactor is how many times the requests a test on per-request values needs to reach
// 80 % power on the change it saw with p-value p: the test statistic grows with the square root
// of the requests, from the z that p stands for to z(0.975) + z(0.8).
func requestsFactor(p float64) float64 {
	z := distuv.UnitNormal.Quantile(1 - p/2)
	if z <= 0 {
		return math.Inf(1)
	}
	return math.Max(1, (zPower/z)*(zPower/z))
}
