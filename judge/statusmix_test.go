package judge

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/webload/webload/stats"
)

// mixChanged is the status-mix rule as the Content section applies it to a single URL.
func mixChanged(a, b statusMix) bool {
	return disjoint(a, b) || mixDistance(a, b) >= minMixMove && mixChangeP(a, b) <= contentAlpha
}

func TestStatusMixRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b statusMix
		want bool
	}{
		{"all 200 to all 404", statusMix{200: 50}, statusMix{404: 50}, true},
		{"one 500 in a thousand", statusMix{200: 1000}, statusMix{200: 999, 500: 1}, false},
		{"the same mix", statusMix{200: 90, 404: 10}, statusMix{200: 90, 404: 10}, false},
		{"a tenth now fail", statusMix{200: 100}, statusMix{200: 90, 500: 10}, true},
		{"a few lost responses", statusMix{200: 200}, statusMix{200: 198, noResponse: 2}, false},
		{"half lost", statusMix{200: 200}, statusMix{200: 100, noResponse: 100}, true},
		{"one request each way: nothing in common", statusMix{200: 1}, statusMix{404: 1}, true},
		{"five each, one now 404", statusMix{200: 5}, statusMix{200: 4, 404: 1}, false},
		{"significant but tiny: 0.3 % more 500s in a million", statusMix{200: 1_000_000}, statusMix{200: 997_000, 500: 3000}, false},
		{"a 2 % move in a million", statusMix{200: 1_000_000, 500: 10_000}, statusMix{200: 1_000_000, 500: 31_000}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := mixChanged(tc.a, tc.b); got != tc.want {
				t.Errorf("changed = %v, want %v (distance %.4f, p %.3g)", got, tc.want, mixDistance(tc.a, tc.b), mixChangeP(tc.a, tc.b))
			}
		})
	}
}

// fisherP against values from R's fisher.test.
func TestFisherP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b, c, d int64
		want       float64
	}{
		{3, 1, 1, 3, 0.4857142857},
		{10, 0, 0, 10, 1.082508822e-05},
		{1, 9, 11, 3, 0.002759456},
		{5, 5, 5, 5, 1},
		{0, 10, 0, 10, 1},
	}
	for _, tc := range tests {
		if got := fisherP(tc.a, tc.b, tc.c, tc.d); math.Abs(got-tc.want) > 1e-6*math.Max(tc.want, 1e-3) {
			t.Errorf("fisherP(%d, %d, %d, %d) = %.10g, want %.10g", tc.a, tc.b, tc.c, tc.d, got, tc.want)
		}
	}
}

// With known truth: under the same mix the rule flags at most 1 % of URLs by chance, and a real
// change of a few percent of the responses is caught when the requests are enough to see it.
func TestStatusMixErrorRates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		n          int
		a, b       []float64 // shares of 200, 404, 500
		minFlagged float64   // share of trials flagged, at least
		maxFlagged float64   // and at most
	}{
		{"same mix, 30 requests", 30, []float64{0.9, 0.05, 0.05}, []float64{0.9, 0.05, 0.05}, 0, 0.01},
		{"same mix, 200 requests", 200, []float64{0.9, 0.05, 0.05}, []float64{0.9, 0.05, 0.05}, 0, 0.01},
		{"same mix, 2000 requests", 2000, []float64{0.98, 0.01, 0.01}, []float64{0.98, 0.01, 0.01}, 0, 0.01},
		{"all 200, 500 requests", 500, []float64{1, 0, 0}, []float64{1, 0, 0}, 0, 0},
		{"5 % turn to 500, 1000 requests", 1000, []float64{0.95, 0.05, 0}, []float64{0.9, 0.05, 0.05}, 0.99, 1},
		{"half turn to 404, 50 requests", 50, []float64{1, 0, 0}, []float64{0.5, 0.5, 0}, 0.99, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(tc.n), 17))
			const trials = 2000
			flagged := 0
			for range trials {
				if mixChanged(drawMix(rng, tc.n, tc.a), drawMix(rng, tc.n, tc.b)) {
					flagged++
				}
			}
			share := float64(flagged) / trials
			if share < tc.minFlagged || share > tc.maxFlagged {
				t.Errorf("flagged %.2f %% of %d trials, want %.0f-%.0f %%", share*100, trials, tc.minFlagged*100, tc.maxFlagged*100)
			}
		})
	}
}

// drawMix draws n responses with the given shares of 200, 404 and 500.
func drawMix(rng *rand.Rand, n int, shares []float64) statusMix {
	codes := []int{200, 404, 500}
	m := statusMix{}
	for range n {
		x := rng.Float64()
		for i, s := range shares {
			if x < s || i == len(shares)-1 {
				m[codes[i]]++
				break
			}
			x -= s
		}
	}
	return m
}

// A table of billions of requests is judged at once, by the normal approximation, and agrees
// with the exact test where both apply.
func TestFisherPLargeTables(t *testing.T) {
	t.Parallel()
	if p := fisherP(3_000_000_000, 1000, 3_000_000_000, 1000); p < 0.9 {
		t.Errorf("the same shares: p = %g", p)
	}
	if p := fisherP(3_000_000_000, 1000, 3_000_000_000, 100_000); p > 1e-9 {
		t.Errorf("a hundred times more failures: p = %g", p)
	}
	// 500 and 620 failures in 50 000: the two-proportion z-test gives 0.00034.
	if p := fisherP(50_000, 500, 50_000, 620); p < 0.0003 || p > 0.0005 {
		t.Errorf("p = %g for 500 vs 620 failures in 50 000", p)
	}
}

func BenchmarkFisherP(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		fisherP(1_000_000, 10_000, 1_000_000, 10_400)
	}
}

// A URL row's mix puts its failed checks and its extract failures under codes of their own, and
// only requests that got no answer under "no response".
func TestMixOfFailureKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		row  stats.URLStats
		want string
	}{
		{"answers only", stats.URLStats{Hits: 5, StatusCodes: stats.StatusCounts{"200": 5}}, "200 ×5"},
		{"lost answers", stats.URLStats{Hits: 5, Failures: 2, StatusCodes: stats.StatusCounts{"200": 5}}, "200 ×5, no response ×2"},
		{"failed checks", stats.URLStats{Hits: 5, Failures: 2, CheckFailures: 2, StatusCodes: stats.StatusCounts{"200": 5}}, "200 ×5, failed check ×2"},
		{"a form without its token, and a POST not sent",
			stats.URLStats{Hits: 5, Failures: 6, ExtractFailures: 4, ExtractUnsent: 3, StatusCodes: stats.StatusCounts{"200": 5}},
			"200 ×5, failed extract ×4, no response ×2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := mixOf(&tc.row).String(); got != tc.want {
				t.Errorf("mix %q, want %q", got, tc.want)
			}
		})
	}
}
