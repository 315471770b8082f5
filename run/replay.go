package run

import (
	"context"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// Replay is a schedule taken from outside the run, such as a replayed access log (package
// replay): each run opens it anew and sends its arrivals instead of Config.Rate's, and the
// result gets its section.
type Replay interface {
	// Open starts a pass over the schedule for one run.
	Open() (loader.Schedule, error)
	// Describe says what is replayed, for the banner: "12000 requests of access.log ...".
	Describe() string
	// AddTo puts the schedule's section into the run's result, once the run has ended.
	AddTo(rep *stats.Report, o loader.Outcome)
}

// replayPart hands the loader its schedule before the run and adds the section after it.
type replayPart struct{ replay Replay }

func (p replayPart) start(_ context.Context, r *runState) error {
	s, err := p.replay.Open()
	if err != nil {
		return SettingError{err}
	}
	r.loader.SetSchedule(s)
	return nil
}

func (p replayPart) wrap(next loader.Sink, _ *runState) loader.Sink { return next }

func (p replayPart) finish(r *runState) section {
	return func(rep *stats.Report) { p.replay.AddTo(rep, r.outcome) }
}
