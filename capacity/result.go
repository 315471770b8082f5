package capacity

import (
	"fmt"

	"github.com/webload/webload/stats"
)

// Summary is the search as a result keeps it: the capacity, the SLO the steps were judged by
// (as written, the error ceiling added when the search added it) and each step's figures.
func (r *Result) Summary() stats.Capacity {
	c := stats.Capacity{Rate: r.Rate, Capped: r.Capped, StopReason: stats.StopCompleted}
	if r.Interrupted {
		c.StopReason, c.InterruptedAt = stats.StopInterrupted, r.InterruptedAt
	}
	for _, g := range r.SLO {
		c.SLO = append(c.SLO, g.Expr)
	}
	for i := range r.Steps {
		c.Steps = append(c.Steps, r.Steps[i].Summary())
	}
	return c
}

// Summary is the step's figures as the search prints and keeps them.
func (s *Step) Summary() stats.CapacityStep {
	return stats.NewCapacityStep(s.Rate, &s.Measured.Report, s.Verdicts,
		stats.StepOutcome{Passed: s.Passed, EndedEarly: s.EndedEarly, Inconclusive: s.Inconclusive, Partial: s.Partial, Again: s.Again})
}

// Report is the result to save for the search: the report of the step at the capacity, or
// when no step passed the lowest rate's, with the search's summary attached; its stop reason
// is the search's when the search was interrupted. ok is false when no step was measured.
func (r *Result) Report() (rep stats.Report, ok bool) {
	i := r.Best
	if i < 0 {
		for k := range r.Steps {
			if i < 0 || r.Steps[k].Rate < r.Steps[i].Rate {
				i = k
			}
		}
	}
	if i < 0 {
		return stats.Report{}, false
	}
	rep = r.Steps[i].Measured.Report
	c := r.Summary()
	rep.Capacity = &c
	if r.Interrupted {
		rep.Run.StopReason = stats.StopInterrupted
	}
	return rep, true
}

// SeriesReport is the result to save for a repeated search (capacity --repeat N): the results
// of its searches (Report) combined as a --repeat series is, each kept under repeats with its
// own search, and the series' capacity (stats.NewCapacitySeries) attached. ok is false when no
// search measured a step.
func SeriesReport(searches []Result) (rep stats.Report, ok bool, err error) {
	var runs []stats.Report
	for i := range searches {
		if r, ok := searches[i].Report(); ok {
			runs = append(runs, r)
		}
	}
	switch len(runs) {
	case 0:
		return stats.Report{}, false, nil
	case 1:
		if len(searches) == 1 {
			return runs[0], true, nil
		}
	}
	rep, err = stats.Combine(runs)
	if err != nil {
		return stats.Report{}, false, fmt.Errorf("combining the searches: %w", err)
	}
	caps := make([]*stats.Capacity, len(runs))
	for i := range runs {
		caps[i] = runs[i].Capacity
	}
	c := stats.NewCapacitySeries(caps)
	rep.Capacity = &c
	if c.Interrupted() {
		rep.Run.StopReason = stats.StopInterrupted
	}
	return rep, true, nil
}
