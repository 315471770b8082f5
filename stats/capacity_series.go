package stats

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// AtLeast tells whether the search's capacity is a lower bound: the highest rate allowed
// passed, the search was interrupted, or its steps ran out before a rate above the capacity
// failed.
func (c *Capacity) AtLeast() bool {
	if c.Capped || c.Interrupted() {
		return true
	}
	t := c.tallies()
	best, next := c.best(t)
	return best != nil && next == nil
}

// NewCapacitySeries sums up the searches of a repeated search (capacity --repeat N), each
// given by its own result's Capacity: the capacity is their median, the SLO the first's, and
// the series is interrupted when its last search was. runs is not empty.
func NewCapacitySeries(runs []*Capacity) Capacity {
	out := Capacity{SLO: runs[0].SLO, StopReason: StopCompleted}
	rates := make([]float64, 0, len(runs))
	for _, c := range runs {
		out.Searches = append(out.Searches, CapacitySearch{Rate: c.Rate, AtLeast: c.Rate > 0 && c.AtLeast(), Judged: c.Judged()})
		rates = append(rates, c.Rate)
	}
	if last := runs[len(runs)-1]; last.Interrupted() {
		out.StopReason, out.InterruptedAt = StopInterrupted, last.InterruptedAt
	}
	out.Rate = Median(rates)
	return out
}

// seriesSummary is a repeated search's answer in one line: "Capacity: 31 req/s, the median of
// 3 searches (29, 31, 33 req/s; range 29-33 req/s, 13 % of the median)".
func (c *Capacity) seriesSummary() string {
	lo, hi := math.Inf(1), math.Inf(-1)
	var each []string
	atLeast := false
	for _, s := range c.Searches {
		lo, hi = min(lo, s.Rate), max(hi, s.Rate)
		switch {
		case !s.Judged:
			each = append(each, "none judged")
		case s.Rate == 0:
			each = append(each, "none")
		case s.AtLeast:
			each = append(each, "at least "+OfferedText(s.Rate))
			atLeast = true
		default:
			each = append(each, OfferedText(s.Rate))
		}
	}
	head := "Capacity: "
	if atLeast || c.Interrupted() {
		head += "at least "
	}
	spread := ""
	if c.Rate > 0 {
		spread = fmt.Sprintf(", %.0f %% of the median", (hi-lo)/c.Rate*100)
	}
	s := fmt.Sprintf("%s%s req/s, the median of %d searches (%s req/s; range %s-%s req/s%s)", head, OfferedText(c.Rate),
		len(c.Searches), strings.Join(each, ", "), OfferedText(lo), OfferedText(hi), spread)
	if c.Interrupted() {
		s += fmt.Sprintf("; search %d interrupted at %s req/s", len(c.Searches), OfferedText(c.InterruptedAt))
	}
	return s
}

func Median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
