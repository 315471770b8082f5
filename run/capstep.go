package run

import (
	"context"
	"fmt"

	"github.com/webload/webload/capacity"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// stepPart makes a run a step of a capacity search: the settle time is left out of the
// step's statistics and of its time, and the step ends early when its windows break the SLO
// badly (capacity.Watch). It is the innermost part, so that the others (the live outputs, the
// databases' and the server's readings) follow the whole step, its settle time included.
type stepPart struct {
	search *CapacitySearch
	watch  *capacity.Watch // the run's
	fired  bool            // the step ended early
}

func (p *stepPart) start(context.Context, *runState) error { return nil }

func (p *stepPart) wrap(next loader.Sink, r *runState) loader.Sink {
	s := p.search
	p.watch = capacity.NewWatch(next, r.targets, s.Settle, s.Window, s.SLO, r.loader.Abort)
	return p.watch
}

// finish moves the run's start past the settle time, as the statistics' results were. A step
// stopped within its settle time has only the window that broke the SLO to show for itself:
// its section makes that window the step's figures.
func (p *stepPart) finish(r *runState) section {
	settle := p.search.Settle
	r.outcome.Elapsed = max(r.outcome.Elapsed-settle, 0)
	r.outcome.Started = r.outcome.Started.Add(settle)
	if p.watch == nil {
		return nil
	}
	window, fired := p.watch.Fired()
	p.fired = fired
	if !fired {
		return nil
	}
	return func(rep *stats.Report) {
		if rep.Transactions == 0 {
			run, label := rep.Run, rep.Label
			*rep = window
			rep.Run, rep.Label = run, label
		}
	}
}

// measureStep measures a search's step at rate: a run of spec's load at that rate for the
// settle time and the step, through parts with the step's own innermost. When ctx ended the
// step, it returns the context's error with the part of the step measured, marked Partial: a
// cut step says nothing of the rate, but the search keeps it to show where it was.
func measureStep(ctx context.Context, spec *Spec, parts []part, search *CapacitySearch, rate float64) (capacity.Measured, error) {
	if search.StepTime < capacity.MinStepTime || search.Settle < 0 {
		return capacity.Measured{}, fmt.Errorf("a step needs %v at least and a settle time not negative (got %v and %v)",
			capacity.MinStepTime, search.StepTime, search.Settle)
	}
	s := *spec
	cfg := &s.Config
	cfg.Rate, cfg.Duration, cfg.Reps = rate, search.Settle+search.StepTime, 0
	s.Info.Model, s.Info.Rate, s.Info.MaxUsers, s.Info.TimeLimit = stats.ModelOpen, rate, cfg.MaxUsers, search.StepTime.Seconds()
	s.step = rate
	step := &stepPart{search: search}
	rep, _, err := runOnce(ctx, &s, append([]part{step}, parts...))
	if err != nil {
		return capacity.Measured{}, err
	}
	if cut := ctx.Err(); cut != nil {
		return capacity.Measured{Report: rep, Partial: true}, cut
	}
	return capacity.Measured{Report: rep, EndedEarly: step.fired}, nil
}
