package loader

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/webload/webload/urls"
)

// maxWalk caps the precomputed weighted walk; longer runs repeat it.
const maxWalk = 1 << 20

// mix is how a run spreads its requests over the targets when they carry weights (a URL file
// imported from analytics): a random draw in proportion to the weights (-i), or a fixed walk
// in which every target appears in proportion to its weight, evenly spread. It is built once
// and only read afterwards, so users share it.
type mix struct {
	walk  []int32 // the weighted order; nil when the list is unweighted
	alias alias
}

// newMix returns nil when no target has a weight, or every weight is the same: then the list
// itself is the walk, as in siege. A target without a weight in a weighted list counts as 1.
// length is how many requests the walk should cover exactly (users × reps, or the open model's
// total); 0 means the run has no count, and the walk is long enough to follow the weights
// closely and repeats.
func newMix(targets []urls.Target, length int) *mix {
	weights := make([]float64, len(targets))
	uniform := true
	for i, t := range targets {
		weights[i] = t.Weight
		if weights[i] <= 0 {
			weights[i] = 1
		}
		uniform = uniform && weights[i] == weights[0]
	}
	if uniform {
		return nil
	}
	if length <= 0 {
		length = max(1000, 10*len(targets))
	}
	length = min(length, maxWalk)
	return &mix{walk: spread(apportion(weights, length)), alias: newAlias(weights)}
}

// apportion shares n slots among the weights by the largest-remainder method, so the counts
// add up to n exactly and each is within one of its exact share.
func apportion(weights []float64, n int) []int {
	var sum float64
	for _, w := range weights {
		sum += w
	}
	counts := make([]int, len(weights))
	type rem struct {
		i    int
		frac float64
	}
	rems := make([]rem, len(weights))
	given := 0
	for i, w := range weights {
		exact := w / sum * float64(n)
		counts[i] = int(math.Floor(exact))
		given += counts[i]
		rems[i] = rem{i, exact - math.Floor(exact)}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].frac > rems[b].frac })
	for k := 0; given < n; k++ {
		counts[rems[k%len(rems)].i]++
		given++
	}
	return counts
}

// spread lays the counts out as one walk where each target's visits are evenly spaced: the
// k-th of c visits sits at (k+½)/c of the way, and the walk is sorted by that position.
func spread(counts []int) []int32 {
	type slot struct {
		pos float64
		t   int32
	}
	var slots []slot
	for t, c := range counts {
		for k := range c {
			slots = append(slots, slot{(float64(k) + 0.5) / float64(c), int32(t)})
		}
	}
	sort.SliceStable(slots, func(a, b int) bool { return slots[a].pos < slots[b].pos })
	walk := make([]int32, len(slots))
	for i, s := range slots {
		walk[i] = s.t
	}
	return walk
}

// alias is Vose's alias table: a weighted draw costs one random index and one coin, whatever
// the number of targets.
type alias struct {
	prob  []float64
	other []int32
}

func newAlias(weights []float64) alias {
	n := len(weights)
	var sum float64
	for _, w := range weights {
		sum += w
	}
	a := alias{prob: make([]float64, n), other: make([]int32, n)}
	scaled := make([]float64, n)
	var small, large []int
	for i, w := range weights {
		scaled[i] = w / sum * float64(n)
		if scaled[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s], a.other[s] = scaled[s], int32(l)
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// What is left holds a probability of 1 up to rounding.
	for _, i := range append(small, large...) {
		a.prob[i], a.other[i] = 1, int32(i)
	}
	return a
}

// weighted draws targets from an alias table with the user's own generator.
type weighted struct {
	rng *rand.Rand
	a   *alias
}

func (w *weighted) Next() int {
	i := w.rng.IntN(len(w.a.prob))
	if w.rng.Float64() < w.a.prob[i] {
		return i
	}
	return int(w.a.other[i])
}

// walker follows the weighted walk from a start offset, wrapping around.
type walker struct {
	walk []int32
	pos  int
}

func (w *walker) Next() int {
	t := w.walk[w.pos]
	w.pos++
	if w.pos == len(w.walk) {
		w.pos = 0
	}
	return int(t)
}
