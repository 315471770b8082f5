package dbload

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// DefaultSlowStatement is the time over which a statement's call counts as slow by default.
// A page is answered in a few hundred milliseconds at best, so a statement of a tenth of a
// second is already a visible part of it; the servers' own thresholds are made for logs, not
// for web pages: MySQL's long_query_time is 10 s by default, and PostgreSQL logs none.
const DefaultSlowStatement = 100 * time.Millisecond

// slowBounds is what a database keeps of a statement's calls during a run, enough to bound
// how many were slow: the calls and their total time over the run, and the fastest and slowest
// calls it kept (timed set) since it started or its summaries were reset, which may be older
// than the run. ownMax says the slowest call is the run's own (it rose during the run, or the
// statement is new).
type slowBounds struct {
	calls            int64
	total            time.Duration
	fastest, slowest time.Duration
	timed            bool
	ownMax           bool
}

// count bounds the calls that took longer than limit (> 0) from below, and says whether the
// bound is exact. Every call of the run took between fastest and slowest (those kept since
// before the run include the run's), so:
//   - with slowest <= limit none was slow, and with fastest > limit all were;
//   - a slowest over limit that rose during the run is one slow call at least;
//   - k slow calls took at most slowest each and the others at most limit, so the total is at
//     most k*slowest + (calls-k)*limit: k >= (total - calls*limit) / (slowest - limit);
//   - k slow calls took more than limit each: k*limit < total, so k <= (total-1)/limit; when
//     the slowest is the run's own, one call took it and the others shared the rest.
//
// The count is exact when the lower bound meets the upper one.
func (b slowBounds) count(limit time.Duration) (int64, bool) {
	if b.calls <= 0 || limit <= 0 {
		return 0, true
	}
	most := b.calls
	if b.total > 0 {
		most = min(most, int64((b.total-1)/limit))
	} else {
		most = 0
	}
	switch {
	case b.timed && b.slowest <= limit:
		most = 0
	case b.timed && b.ownMax && b.total >= b.slowest:
		// One call took the slowest time; the others shared the rest.
		most = min(most, 1+int64(max(0, b.total-b.slowest-1)/limit))
	}
	least := int64(0)
	switch {
	case !b.timed:
	case b.fastest > limit:
		least = b.calls
	case b.slowest > limit:
		if b.ownMax {
			least = 1
		}
		if b.calls <= math.MaxInt64/int64(limit) {
			if over := b.total - time.Duration(b.calls)*limit; over > 0 {
				span := b.slowest - limit
				least = max(least, int64((over+span-1)/span))
			}
		}
	}
	least = min(least, most)
	return least, least == most
}

// slowest picks from rest the statements with a slow call, at most top, most slow calls first
// (then the slowest, then the most time), and returns them and the others in their order.
func slowest(rest []Statement, top int) (slow, others []Statement) {
	for _, st := range rest {
		if st.SlowCalls > 0 {
			slow = append(slow, st)
		}
	}
	if len(slow) == 0 {
		return nil, rest
	}
	slices.SortStableFunc(slow, func(a, b Statement) int {
		if c := cmp.Compare(b.SlowCalls, a.SlowCalls); c != 0 {
			return c
		}
		if c := cmp.Compare(maxOf(b), maxOf(a)); c != 0 {
			return c
		}
		return cmp.Compare(b.Total, a.Total)
	})
	slow = slow[:min(len(slow), max(0, top))]
	kept := make(map[string]bool, len(slow))
	for _, st := range slow {
		kept[st.ID] = true
	}
	for _, st := range rest {
		if !kept[st.ID] {
			others = append(others, st)
		}
	}
	return slow, others
}

func maxOf(s Statement) time.Duration {
	if s.Max == nil {
		return 0
	}
	return *s.Max
}
