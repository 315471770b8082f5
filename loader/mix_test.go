package loader

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/webload/webload/urls"
)

func TestApportion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		weights []float64
		n       int
		want    []int
	}{
		{[]float64{1, 1, 1}, 10, []int{4, 3, 3}},
		{[]float64{5000, 3000, 2000}, 1000, []int{500, 300, 200}},
		{[]float64{1, 2, 3, 4}, 7, []int{1, 1, 2, 3}},
		{[]float64{1e9, 1}, 100, []int{100, 0}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.weights, tc.n), func(t *testing.T) {
			t.Parallel()
			got := apportion(tc.weights, tc.n)
			sum := 0
			for i, c := range got {
				sum += c
				if c != tc.want[i] {
					t.Errorf("apportion = %v, want %v", got, tc.want)
					break
				}
			}
			if sum != tc.n {
				t.Errorf("counts add up to %d, want %d", sum, tc.n)
			}
		})
	}
}

// In the walk, a target's visits are spread out, not bunched: between two visits of a target
// with share s there are about 1/s steps.
func TestSpreadInterleaves(t *testing.T) {
	t.Parallel()
	walk := spread([]int{50, 25, 25})
	if len(walk) != 100 {
		t.Fatalf("walk of %d, want 100", len(walk))
	}
	for i := 0; i+1 < len(walk); i++ {
		if walk[i] != 0 && walk[i] == walk[i+1] {
			t.Fatalf("target %d twice in a row at %d: %v", walk[i], i, walk)
		}
	}
}

func TestAliasDrawsInProportion(t *testing.T) {
	t.Parallel()
	weights := []float64{70, 20, 9, 1}
	a := newAlias(weights)
	w := &weighted{rng: rand.New(rand.NewPCG(1, 2)), a: &a}
	const draws = 200000
	counts := make([]int, len(weights))
	for range draws {
		counts[w.Next()]++
	}
	for i, c := range counts {
		p := weights[i] / 100
		// Four standard deviations of a binomial count: fails by chance once in ~15 000 runs.
		if sd := math.Sqrt(draws * p * (1 - p)); math.Abs(float64(c)-draws*p) > 4*sd {
			t.Errorf("target %d drawn %d times, want %.0f ± %.0f", i, c, draws*p, 4*sd)
		}
	}
}

func weightedTargets(t *testing.T, base string, weights []float64) []urls.Target {
	t.Helper()
	targets := pageTargets(t, base, len(weights))
	for i := range targets {
		targets[i].Weight = weights[i]
	}
	return targets
}

// -c 20 -r 50 over a weighted list makes the 1000 requests in the list's proportions, without
// randomness; the open model does the same with -r as its total.
func TestWeightedRunsFollowTheWeights(t *testing.T) {
	t.Parallel()
	weights := []float64{5000, 2500, 1500, 700, 300}
	want := []int{500, 250, 150, 70, 30}
	for _, cfg := range []Config{{Users: 20, Reps: 50}, {Rate: 2000, MaxUsers: 100, Reps: 1000}} {
		t.Run(fmt.Sprintf("users %d rate %v", cfg.Users, cfg.Rate), func(t *testing.T) {
			t.Parallel()
			srv := newHitServer(t, nil)
			results, _ := run(t, cfg, weightedTargets(t, srv.URL, weights))
			if len(results) != 1000 {
				t.Fatalf("%d results", len(results))
			}
			for i, w := range want {
				if got := srv.count(fmt.Sprintf("GET /p/%d", i)); got != w {
					t.Errorf("/p/%d hit %d times, want %d", i, got, w)
				}
			}
		})
	}
}

func TestUnweightedListsKeepSiegesWalk(t *testing.T) {
	t.Parallel()
	if m := newMix(make([]urls.Target, 5), 100); m != nil {
		t.Error("a list without weights got a weighted walk")
	}
	same := []urls.Target{{Weight: 3}, {Weight: 3}}
	if m := newMix(same, 100); m != nil {
		t.Error("equal weights got a weighted walk")
	}
}
