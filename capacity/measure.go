package capacity

import (
	"context"
	"fmt"
	"time"

	"github.com/webload/webload/internal/promsink"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// DefaultWindow is the live check's period when Measurer.Window is 0.
const DefaultWindow = time.Second

// Measurer measures steps with the loader: an open-model run at the step's rate for
// Settle+StepTime, of which only the requests intended after Settle count. The settle time
// lets connections open and caches warm; a queue that builds in it carries into the step, so
// a rate the site cannot sustain shows in the step's figures even when the step is short.
type Measurer struct {
	// Config is the load; each step sets its Rate and Duration and clears Reps. MaxUsers caps
	// the requests in flight, which an overloaded site makes many.
	Config loader.Config
	// Targets is the URL list.
	Targets []urls.Target
	// StepTime is the measured part of a step, MinStepTime at least; Settle comes before it,
	// uncounted.
	StepTime, Settle time.Duration
	// Window is the period of the live check against the relaxed SLO; 0 means DefaultWindow.
	Window time.Duration
	// SLO is what a step must pass; a window failing it Badly ends the step early.
	SLO []stats.Gate
	// Info is echoed into each step's result; its rate and time limit are the step's.
	Info stats.RunInfo
	// Label names each step's result.
	Label string
	// Metrics, when set (--prometheus-listen), counts every step's requests and shows the
	// rate in progress as webload_step and the users busy as webload_users_active.
	Metrics *promsink.Metrics
}

// Measure implements Measure. When ctx was cancelled it returns the context's error with the
// part of the step measured until then, marked Partial: a cut step says nothing of the rate,
// but the search keeps it to show where it was.
func (m *Measurer) Measure(ctx context.Context, rate float64) (Measured, error) {
	if m.StepTime < MinStepTime || m.Settle < 0 {
		return Measured{}, fmt.Errorf("a step needs %v at least and a settle time not negative (got %v and %v)", MinStepTime, m.StepTime, m.Settle)
	}
	cfg := m.Config
	cfg.Rate, cfg.Duration, cfg.Reps = rate, m.Settle+m.StepTime, 0
	l, err := loader.New(cfg, m.Targets)
	if err != nil {
		return Measured{}, fmt.Errorf("preparing the step: %w", err)
	}
	targets := l.Targets()
	window := m.Window
	if window <= 0 {
		window = DefaultWindow
	}
	rec := stats.NewRecorder(targets, stats.Options{Interval: window})
	step, stop := context.WithCancel(ctx)
	defer stop()
	w := &watch{next: rec, settle: m.Settle, window: window, bad: relaxed(m.SLO), targets: targets, stop: stop}
	var sink loader.Sink = w
	if m.Metrics != nil {
		m.Metrics.SetStep(rate)
		m.Metrics.WatchUsers(l.ActiveUsers)
		sink = m.Metrics.Wrap(w, time.Now())
	}
	o := l.Run(step, sink)
	if m.Metrics != nil {
		m.Metrics.RunEnded(o.Elapsed)
	}
	cut := ctx.Err()
	o.Elapsed = max(o.Elapsed-m.Settle, 0)
	o.Started = o.Started.Add(m.Settle)
	info := m.Info
	info.Model, info.Rate, info.MaxUsers, info.TimeLimit = stats.ModelOpen, rate, cfg.MaxUsers, m.StepTime.Seconds()
	rep := rec.Report(o, info, m.Label)
	if w.fired && rep.Transactions == 0 {
		// Stopped within the settle time: the window that broke the SLO is all there is.
		rep = w.firedAt
		rep.Run, rep.Label = info, m.Label
	}
	if cut != nil {
		return Measured{Report: rep, Partial: true}, cut
	}
	return Measured{Report: rep, EndedEarly: w.fired}, nil
}
