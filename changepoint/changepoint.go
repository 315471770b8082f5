// Package changepoint finds where a series of measurements changed level: the nights at which
// a nightly load test's p95 stepped up or down, whatever came after. It is E-divisive means
// (Matteson and James) as Hunter and Apache Otava use it for performance histories: the energy
// statistic proposes where to split, and a Student t-test between the segments either side of
// each proposal decides, deterministically, whether it is a change. No permutations are drawn,
// so the same history always gives the same change points, and a history of hundreds of
// nights costs milliseconds.
//
// The package is pure computation: no I/O, no global state, safe for concurrent use.
package changepoint

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// DefaultP is the significance a change point is held to: the t-test between the segments
// either side must give p below it. It is Hunter's default, and it has to be this strict: the
// split tested is the one that looks most like a change among all the history's nights, so the
// nominal p understates how often noise alone passes. On seeded histories of 20 nights of pure
// Gaussian noise, DefaultP lists a change in about 2 histories in 100, and 0.01 in 18
// (scripts/changerates; docs/nightly.md gives the rates).
const DefaultP = 0.001

// DefaultMinMagnitude is the smallest relative change listed (0.05 = 5 %): below what a
// nightly limit usually allows, and above the changes of one in a count that is the same every
// night by construction (the transactions of a run with -r), whose segments have no spread and
// so make any difference significant.
const DefaultMinMagnitude = 0.05

// candidateP is the looser level at which splitting proposes change points before they are
// held to Config.P against their neighbours. Tested against the whole rest of a segment, the
// first edge of a step and its revert sees a mixture of both levels on one side and looks far
// weaker than it is; proposing it at this level lets the final test see it between clean
// segments.
const candidateP = 0.05

// Sentinel errors of Config.Validate.
var (
	ErrP            = errors.New("p must be between 0 and 1")
	ErrMinMagnitude = errors.New("minimum magnitude must be 0 or more")
)

// Config is how strict detection is.
type Config struct {
	// P is the two-sided significance level of the t-test between the segments either side of
	// a change point: 0.001 lists changes that noise alone would show less than 1 time in
	// 1000 at a given night.
	P float64
	// MinMagnitude is the smallest relative change of the mean, |after−before|/|before|, that
	// is listed; 0 lists every significant change.
	MinMagnitude float64
}

// DefaultConfig is DefaultP and DefaultMinMagnitude.
func DefaultConfig() Config { return Config{P: DefaultP, MinMagnitude: DefaultMinMagnitude} }

// Validate says what is wrong with c, wrapping ErrP or ErrMinMagnitude.
func (c Config) Validate() error {
	if !(c.P > 0 && c.P < 1) {
		return fmt.Errorf("%w (got %v)", ErrP, c.P)
	}
	if !(c.MinMagnitude >= 0) || math.IsInf(c.MinMagnitude, 1) {
		return fmt.Errorf("%w (got %v)", ErrMinMagnitude, c.MinMagnitude)
	}
	return nil
}

// Change is a change point: the series' mean differs from Index on.
type Change struct {
	// Index is the first value of the new segment, as an index of the series given.
	Index int
	// Before and After are the means of the segments either side (up to the change point before
	// and from Index to the next), outliers and values not measured left out; BeforeN and
	// AfterN count their values.
	Before, After   float64
	BeforeN, AfterN int
	// Lo and Hi bound the 95 % confidence interval of After − Before.
	Lo, Hi float64
	// P is the two-sided p-value of the t-test between the two segments.
	P float64
}

// Relative is the change of the mean relative to the mean before (0.2 = +20 %); ±Inf from a
// mean of 0.
func (c Change) Relative() float64 {
	if c.Before == 0 {
		return math.Copysign(math.Inf(1), c.After)
	}
	return (c.After - c.Before) / math.Abs(c.Before)
}

// Worse tells whether the change is a regression of a figure for which higherIsBetter says
// which way is good: up for latencies and failures, down for rates.
func (c Change) Worse(higherIsBetter bool) bool {
	if c.After == c.Before {
		return false
	}
	return (c.After > c.Before) != higherIsBetter
}

// Result is what Detect found in a series.
type Result struct {
	// Changes are the change points, in the order of the series.
	Changes []Change
	// Outliers are the indices of lone values that differ from both neighbours' segments,
	// which in turn do not differ from each other (a night something else ran on the site), and
	// of a lone first value unlike all that follow. They are left out of every segment.
	Outliers []int
}

// Detect finds the change points of xs with c: New(c) and Detector.Detect, for one series.
func Detect(xs []float64, c Config) (Result, error) {
	d, err := New(c)
	if err != nil {
		return Result{}, err
	}
	return d.Detect(xs), nil
}

// Detector finds change points with one Config. It remembers the critical values of its
// t-tests between series, which is most of what a short series costs, so one Detector should
// serve all the series of a history. It is not safe for concurrent use.
type Detector struct {
	c    Config
	crit criticals
}

// New is a Detector that holds change points to c, or c's error from Validate.
func New(c Config) (*Detector, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("detect change points: %w", err)
	}
	return &Detector{c: c, crit: criticals{p: c.P, t: map[int]float64{}}}, nil
}

// Detect finds the change points of xs. Values that are NaN or infinite were not measured:
// they are skipped, and indices still refer to xs. A single value can make a segment only at
// the end of the series: the newest night is a change or not by itself, and the next night
// confirms it or makes it an outlier.
func (d *Detector) Detect(xs []float64) Result {
	var res Result
	skip := make([]bool, len(xs))
	for i, x := range xs {
		skip[i] = math.IsNaN(x) || math.IsInf(x, 0)
	}
	// Each pass drops the outliers found; a series has fewer outliers than values, so this
	// ends.
	for {
		var vals []float64
		var at []int // at[k] is the index in xs of vals[k]
		for i, x := range xs {
			if !skip[i] {
				vals = append(vals, x)
				at = append(at, i)
			}
		}
		cps := prune(vals, propose(vals), d.c, d.crit)
		lone := outliers(vals, cps, d.c, d.crit)
		if len(lone) == 0 {
			res.Changes = changes(vals, at, cps)
			return res
		}
		for _, k := range lone {
			skip[at[k]] = true
			res.Outliers = append(res.Outliers, at[k])
		}
		slices.Sort(res.Outliers)
	}
}

// propose splits xs where E-divisive means would, recursively, as long as the t-test between
// the two parts of a segment gives p < candidateP, and returns the split points in order.
func propose(xs []float64) []int {
	var out []int
	var split func(lo, hi int)
	split = func(lo, hi int) {
		if hi-lo < 3 {
			return
		}
		tau, _ := bestSplit(xs, lo, hi)
		if p, ok := test(summarize(xs[lo:tau]), summarize(xs[tau:hi])); ok && p < candidateP {
			split(lo, tau)
			out = append(out, tau)
			split(tau, hi)
			return
		}
		// One wild night inflates the spread of whichever part holds it until no split of
		// the segment looks significant; set the wildest apart (Grubbs' idea) and go on
		// either side of it. prune and outliers decide whether it is a change or an outlier.
		i := wildest(xs, lo, hi)
		rest := summarize(append(xs[lo:i:i], xs[i+1:hi]...))
		if p, ok := test(rest, summarize(xs[i:i+1])); !ok || p >= candidateP {
			return
		}
		split(lo, i)
		if i > lo {
			out = append(out, i)
		}
		if i+1 < hi {
			out = append(out, i+1)
		}
		split(i+1, hi)
	}
	split(0, len(xs))
	return out
}

// wildest is the index in [lo, hi) of the value furthest from the mean of xs[lo:hi].
func wildest(xs []float64, lo, hi int) int {
	m := summarize(xs[lo:hi]).mean
	w := lo
	for i := lo + 1; i < hi; i++ {
		if abs(xs[i]-m) > abs(xs[w]-m) {
			w = i
		}
	}
	return w
}

// prune holds each proposed change point to c against the segments either side of it, as they
// stand once the others are placed, and drops the weakest that fails, one at a time, until all
// pass: dropping one merges two segments and can make a neighbour pass or fail. The noise is
// the whole history's (see noise), so one critical t serves all the change points of a round.
func prune(xs []float64, cps []int, c Config, crits criticals) []int {
	for len(cps) > 0 {
		v, df := noise(xs, cps)
		if df < 1 {
			cps = cps[:len(cps)-1] // more change points than the values can judge
			continue
		}
		crit := crits.at(df)
		worst, weakest := -1, math.Inf(1)
		for i := range cps {
			b, a := neighbours(xs, cps, i)
			// Strength ranks the failures: too small first, then by |t|.
			strength := math.Abs(tStat(b, a, v))
			switch {
			case magnitude(b.mean, a.mean) < c.MinMagnitude:
				strength = -1 / (1 + strength)
			case strength >= crit:
				continue
			}
			if strength < weakest || worst < 0 {
				worst, weakest = i, strength
			}
		}
		if worst < 0 {
			return cps
		}
		cps = append(cps[:worst:worst], cps[worst+1:]...)
	}
	return cps
}

// neighbours are the segments either side of change point i of cps in xs.
func neighbours(xs []float64, cps []int, i int) (before, after segment) {
	lo, hi := 0, len(xs)
	if i > 0 {
		lo = cps[i-1]
	}
	if i+1 < len(cps) {
		hi = cps[i+1]
	}
	return summarize(xs[lo:cps[i]]), summarize(xs[cps[i]:hi])
}

// magnitude is |after−before|/|before|, +Inf from 0 to anything else.
func magnitude(before, after float64) float64 {
	switch {
	case after == before:
		return 0
	case before == 0:
		return math.Inf(1)
	}
	return math.Abs(after-before) / math.Abs(before)
}

// outliers are the positions in xs of the lone values between two change points whose
// segments either side do not differ by c (the segment before the first change point counts
// as a neighbour), and of a lone first value. A lone newest value is not one: it may be the
// first night of a step.
func outliers(xs []float64, cps []int, c Config, crits criticals) []int {
	var out []int
	if len(cps) > 0 && cps[0] == 1 && len(xs) > 2 {
		out = append(out, 0)
	}
	v, df := noise(xs, cps)
	if df < 1 {
		return out
	}
	crit := crits.at(df)
	for i := 0; i+1 < len(cps); i++ {
		if cps[i+1] != cps[i]+1 {
			continue
		}
		lo, hi := 0, len(xs)
		if i > 0 {
			lo = cps[i-1]
		}
		if i+2 < len(cps) {
			hi = cps[i+2]
		}
		b, a := summarize(xs[lo:cps[i]]), summarize(xs[cps[i+1]:hi])
		if math.Abs(tStat(b, a, v)) < crit || magnitude(b.mean, a.mean) < c.MinMagnitude {
			out = append(out, cps[i])
		}
	}
	return out
}

// changes describes the change points cps of xs, whose values came from the indices at of the
// series given.
func changes(xs []float64, at []int, cps []int) []Change {
	var out []Change
	v, df := noise(xs, cps)
	for i, cp := range cps {
		b, a := neighbours(xs, cps, i)
		p, lo, hi := describe(b, a, v, df)
		out = append(out, Change{Index: at[cp], Before: b.mean, After: a.mean, BeforeN: b.n, AfterN: a.n, Lo: lo, Hi: hi, P: p})
	}
	return out
}
