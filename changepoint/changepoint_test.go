package changepoint

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// nights is a seeded history of a p95 in ms: 500 plus Gaussian noise of 30, plus step from
// night stepAt on (none when stepAt < 0).
func nights(seed uint64, n int, step float64, stepAt int) []float64 {
	rng := rand.New(rand.NewPCG(seed, 36))
	v := make([]float64, n)
	for i := range v {
		v[i] = 500 + 30*rng.NormFloat64()
		if stepAt >= 0 && i >= stepAt {
			v[i] += step
		}
	}
	return v
}

func TestDetect(t *testing.T) {
	t.Parallel()
	revert := nights(3, 20, 200, 8)
	for i := 14; i < 20; i++ {
		revert[i] -= 200
	}
	outlier := nights(4, 20, 0, -1)
	outlier[10] += 600
	drift := nights(5, 20, 0, -1)
	for i := range drift {
		drift[i] += 10 * float64(i) // +10 ms a night: +190 ms over the history
	}
	notMeasured := nights(6, 20, 200, 13)
	notMeasured[5], notMeasured[13] = math.NaN(), math.Inf(1)
	firstOdd := nights(7, 20, 0, -1)
	firstOdd[0] += 400
	flat := make([]float64, 20)
	for i := range flat {
		flat[i] = 1000
		if i >= 10 {
			flat[i] = 1020 // +2 %: significant, with no spread at all, but below 5 %
		}
	}
	tests := []struct {
		name     string
		xs       []float64
		at       []int  // the change points' indices
		worse    []bool // whether each is a regression of a latency
		outliers []int
	}{
		{"step at 13 of 20", nights(1, 20, 200, 13), []int{13}, []bool{true}, nil},
		{"+100 ms step at 13 of 20", nights(10, 20, 100, 13), []int{13}, []bool{true}, nil},
		{"no change", nights(2, 20, 0, -1), nil, nil, nil},
		{"step and revert", revert, []int{8, 14}, []bool{true, false}, nil},
		{"one outlier night", outlier, nil, nil, []int{10}},
		{"an odd first night", firstOdd, nil, nil, []int{0}},
		{"step on the newest night", nights(8, 20, 300, 19), []int{19}, []bool{true}, nil},
		{"faster from night 13", nights(9, 20, -200, 13), []int{13}, []bool{false}, nil},
		{"nights not measured", notMeasured, []int{14}, []bool{true}, nil}, // 13 was not measured
		{"a change below the minimum", flat, nil, nil, nil},
		{"empty", nil, nil, nil, nil},
		{"one night", []float64{500}, nil, nil, nil},
		{"two nights", []float64{500, 900}, nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := Detect(tc.xs, DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			var at []int
			var worse []bool
			for _, c := range res.Changes {
				at = append(at, c.Index)
				worse = append(worse, c.Worse(false))
			}
			if !slices.Equal(at, tc.at) || !slices.Equal(worse, tc.worse) || !slices.Equal(res.Outliers, tc.outliers) {
				t.Errorf("changes at %v (worse %v), outliers %v; want %v (%v), %v\n%+v", at, worse, res.Outliers, tc.at, tc.worse, tc.outliers, res.Changes)
			}
			for _, c := range res.Changes {
				if d := c.After - c.Before; !(c.Lo <= d && d <= c.Hi) || c.P >= DefaultP || c.BeforeN < 1 || c.AfterN < 1 {
					t.Errorf("change %+v: difference %v outside its interval, or p too high", c, d)
				}
			}
		})
	}
}

// The 200 ms step's sizes: the means either side and an interval that holds the step.
func TestDetectSizes(t *testing.T) {
	t.Parallel()
	xs := make([]float64, 20)
	for i := range xs {
		xs[i] = 500 + 10*float64(i%3-1) // 490, 500, 510, ...: 500 over the first 12, 698.75 after
		if i >= 12 {
			xs[i] += 200
		}
	}
	res, err := Detect(xs, DefaultConfig())
	if err != nil || len(res.Changes) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	c := res.Changes[0]
	if c.Index != 12 || c.BeforeN != 12 || c.AfterN != 8 || c.Before != 500 || math.Abs(c.After-698.75) > 1e-9 ||
		!(c.Lo < 200 && c.Hi > 200 && c.Lo > 190) || math.Abs(c.Relative()-0.3975) > 1e-9 || !c.Worse(false) || c.Worse(true) {
		t.Errorf("%+v (relative %v)", c, c.Relative())
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    Config
		want error
	}{
		{"default", DefaultConfig(), nil},
		{"p of 0", Config{P: 0}, ErrP},
		{"p of 1", Config{P: 1}, ErrP},
		{"p NaN", Config{P: math.NaN()}, ErrP},
		{"negative magnitude", Config{P: 0.01, MinMagnitude: -0.1}, ErrMinMagnitude},
		{"magnitude NaN", Config{P: 0.01, MinMagnitude: math.NaN()}, ErrMinMagnitude},
		{"no minimum", Config{P: 0.01}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.c.Validate()
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
			if _, derr := Detect([]float64{1, 2, 3}, tc.c); (derr == nil) != (err == nil) {
				t.Errorf("Detect: %v", derr)
			}
		})
	}
}

// The energy statistic's split on a clean step is the step, and the incremental sums agree
// with the definition computed directly.
func TestBestSplit(t *testing.T) {
	t.Parallel()
	xs := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9}
	for lo := 0; lo < 5; lo++ {
		for hi := lo + 2; hi <= len(xs); hi++ {
			tau, q := bestSplit(xs, lo, hi)
			wantTau, wantQ := lo+1, math.Inf(-1)
			for i := lo + 1; i < hi; i++ {
				if e := energy(xs[lo:i], xs[i:hi]); e > wantQ+1e-12 {
					wantTau, wantQ = i, e
				}
			}
			if tau != wantTau || math.Abs(q-wantQ) > 1e-9 {
				t.Errorf("[%d:%d]: split %d, Q %v; want %d, %v", lo, hi, tau, q, wantTau, wantQ)
			}
		}
	}
}

// energy is the E-divisive statistic of a against b by its definition.
func energy(a, b []float64) float64 {
	m, k := float64(len(a)), float64(len(b))
	var cross, wa, wb float64
	for _, x := range a {
		for _, y := range b {
			cross += math.Abs(x - y)
		}
	}
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			wa += math.Abs(a[i] - a[j])
		}
	}
	for i := range b {
		for j := i + 1; j < len(b); j++ {
			wb += math.Abs(b[i] - b[j])
		}
	}
	e := 2 * cross / (m * k)
	if len(a) > 1 {
		e -= wa / (m * (m - 1) / 2)
	}
	if len(b) > 1 {
		e -= wb / (k * (k - 1) / 2)
	}
	return m * k / (m + k) * e
}

func TestTTest(t *testing.T) {
	t.Parallel()
	// Before 1, 2, 3 (mean 2, ss 2), after 4, 5, 6 (mean 5, ss 2): pooled variance 1,
	// se = sqrt(2/3), t = 3.674 with 4 degrees of freedom: p = 0.0213, and the interval is
	// 3 ± 2.776·0.8165.
	b, a := summarize([]float64{1, 2, 3}), summarize([]float64{4, 5, 6})
	p, ok := test(b, a)
	if !ok || math.Abs(p-0.02131) > 1e-4 {
		t.Errorf("test: p %v", p)
	}
	p, lo, hi := describe(b, a, 1, 4)
	if math.Abs(p-0.02131) > 1e-4 || math.Abs(lo-(3-2.7764*0.8165)) > 1e-3 || math.Abs(hi-(3+2.7764*0.8165)) > 1e-3 {
		t.Errorf("describe: p %v, interval %v to %v", p, lo, hi)
	}
	if c := critical(0.02131, 4); math.Abs(c-3.674) > 1e-3 {
		t.Errorf("critical t %v", c)
	}
	if _, ok := test(summarize([]float64{1}), summarize([]float64{2})); ok {
		t.Error("one value against one was judged")
	}
	if p, ok := test(summarize([]float64{1, 1}), summarize([]float64{2})); !ok || p != 0 {
		t.Errorf("no spread, different means: p %v", p)
	}
	if p, ok := test(summarize([]float64{1, 1}), summarize([]float64{1})); !ok || p != 1 {
		t.Errorf("no spread, one mean: p %v", p)
	}
}
