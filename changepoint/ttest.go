package changepoint

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// confidence is the level of the interval given for each change's difference: the 95 % the
// rest of webload's intervals use, whatever p the detection is held to.
const confidence = 0.95

// segment is a run of values that share a mean: its count, mean and sum of squared deviations
// (the sample variance times count-1).
type segment struct {
	n        int
	mean, ss float64
}

// summarize is the segment of xs.
func summarize(xs []float64) segment {
	s := segment{n: len(xs)}
	if s.n == 0 {
		return s
	}
	for _, x := range xs {
		s.mean += x
	}
	s.mean /= float64(s.n)
	for _, x := range xs {
		d := x - s.mean
		s.ss += d * d
	}
	return s
}

// test is Student's two-sample t-test of after against before with the variance pooled over the
// two: the segments either side of a change are assumed to vary alike, which lets a segment of
// one value be judged (as a new night is judged against a prediction interval). It gives the
// two-sided p-value; ok is false when the two hold fewer than three values between them, or
// one is empty: no spread to judge by.
func test(before, after segment) (p float64, ok bool) {
	df := before.n + after.n - 2
	if df < 1 || before.n == 0 || after.n == 0 {
		return 0, false
	}
	t := tStat(before, after, (before.ss+after.ss)/float64(df))
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Survival(math.Abs(t)), true
}

// tStat is Student's t of after's mean against before's when values vary by variance: ±Inf
// when the means differ and nothing varies, 0 when they are equal.
func tStat(before, after segment, variance float64) float64 {
	diff := after.mean - before.mean
	se := math.Sqrt(variance * (1/float64(before.n) + 1/float64(after.n)))
	switch {
	case diff == 0:
		return 0
	case se == 0 || math.IsNaN(se):
		return math.Copysign(math.Inf(1), diff)
	}
	return diff / se
}

// critical is the |t| beyond which a t-test with df degrees of freedom is significant at
// two-sided level p. Quantiles cost about a hundred times a p-value, so pruning compares
// each change point's t with this one value rather than work out every p-value.
func critical(p float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - p/2)
}

// criticals remembers the critical t of level p by degrees of freedom: pruning asks for the
// same few again and again as change points come and go.
type criticals struct {
	p float64
	t map[int]float64
}

func (c criticals) at(df int) float64 {
	t, ok := c.t[df]
	if !ok {
		t = critical(c.p, df)
		c.t[df] = t
	}
	return t
}

// describe is the two-sided p-value of the t-test of after against before when values vary by
// variance, estimated with df degrees of freedom, and the 95 % interval of after's mean minus
// before's. Segments without any spread differ for sure when their means differ.
func describe(before, after segment, variance float64, df int) (p, lo, hi float64) {
	diff := after.mean - before.mean
	t := tStat(before, after, variance)
	switch {
	case t == 0:
		return 1, diff, diff
	case math.IsInf(t, 0) || df < 1:
		return 0, diff, diff
	}
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}
	half := dist.Quantile(1-(1-confidence)/2) * diff / t
	return 2 * dist.Survival(math.Abs(t)), diff - math.Abs(half), diff + math.Abs(half)
}

// noise is the variance of the values of xs about the means of the segments between the
// change points cps, and its degrees of freedom: how much a night varies when nothing changes,
// estimated from the whole history rather than from the two segments beside one change point.
// A segment of two nights says next to nothing about the noise; two calm nights beside it
// would make any jump look significant.
func noise(xs []float64, cps []int) (variance float64, df int) {
	lo, ss := 0, 0.0
	for _, hi := range append(cps[:len(cps):len(cps)], len(xs)) {
		ss += summarize(xs[lo:hi]).ss
		lo = hi
	}
	df = len(xs) - len(cps) - 1
	if df < 1 {
		return 0, df
	}
	return ss / float64(df), df
}
