package stats

import "math"

// A capacity search may measure a rate twice: a failure again before it searches below it,
// and the capacity again before it settles. A rate's verdict is then that of its last judged
// measurement: a failure that passed when measured again was noise, and a pass that failed
// when measured again does not hold. Steps that could not be judged, or were cut short, give a
// rate no verdict.

// rateTally is what the steps at one rate say.
type rateTally struct {
	judged, failures int // the steps judged, and those of them that failed
	last             int // the last judged step, whose verdict is the rate's; -1 for none
}

// tallies reads the steps rate by rate.
func (c *Capacity) tallies() map[float64]*rateTally {
	t := map[float64]*rateTally{}
	for i := range c.Steps {
		s := &c.Steps[i]
		r := t[s.Rate]
		if r == nil {
			r = &rateTally{last: -1}
			t[s.Rate] = r
		}
		switch {
		case s.Passed:
			r.judged, r.last = r.judged+1, i
		case s.failed():
			r.judged, r.failures, r.last = r.judged+1, r.failures+1, i
		}
	}
	return t
}

// Settled is where a search's steps stand, by the verdicts of their rates.
type Settled struct {
	// Best indexes the last measurement of the capacity: the highest rate passed below the
	// lowest rate failed. -1 when none passed.
	Best int
	// Next indexes the last measurement of the lowest rate failed; -1 when none failed.
	Next int
	// Floor is the highest rate below Next's that passed or could not be judged: where a
	// search goes on from, since a higher rate brings more requests to judge. 0 for none.
	Floor float64
}

// Settle reads the steps as a search settles them.
func (c *Capacity) Settle() Settled {
	t := c.tallies()
	s := Settled{Best: -1, Next: -1}
	hi := math.Inf(1)
	for rate, r := range t {
		if r.last >= 0 && !c.Steps[r.last].Passed && rate < hi {
			hi, s.Next = rate, r.last
		}
	}
	for rate, r := range t {
		switch {
		case rate >= hi:
		case r.last < 0:
			if r.judged == 0 && c.unjudgedAt(rate) {
				s.Floor = max(s.Floor, rate)
			}
		case c.Steps[r.last].Passed:
			s.Floor = max(s.Floor, rate)
			if s.Best < 0 || rate > c.Steps[s.Best].Rate {
				s.Best = r.last
			}
		}
	}
	return s
}

// unjudgedAt tells whether a step at rate was measured whole and could not be judged; a step
// cut short says nothing of its rate.
func (c *Capacity) unjudgedAt(rate float64) bool {
	for i := range c.Steps {
		if s := &c.Steps[i]; s.Rate == rate && s.Inconclusive != "" {
			return true
		}
	}
	return false
}

// sureness says how sure the capacity is, by the measurements of its rate: "confirmed by a
// second measurement", "passed when measured again after a failure" or "measured once".
func (c *Capacity) sureness(t map[float64]*rateTally) string {
	r := t[c.Rate]
	switch {
	case r == nil || r.judged < 2:
		return "measured once"
	case r.failures == 0:
		return "confirmed by a second measurement"
	}
	return "passed when measured again after a failure"
}
