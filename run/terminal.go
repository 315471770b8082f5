package run

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/webload/webload/internal/progress"
	"github.com/webload/webload/live"
	"github.com/webload/webload/loader"
)

// terminalPart is what the terminal shows while a run goes: the progress line
// (Outputs.Progress), and when the run is told to stop, a notice that it is finishing the
// requests in flight (unless the run is quiet). It wraps the sink last, so that the line's
// figures count every result the loader delivers.
type terminalPart struct {
	terminal, stderr io.Writer
	talk             bool

	ctx      context.Context // the run's, whose end the notice follows
	display  *progress.Display
	finished chan struct{} // closed as the run ends
	noticed  chan struct{} // closed once the notice's goroutine is done
}

func (p *terminalPart) start(ctx context.Context, _ *runState) error {
	p.ctx, p.display, p.finished = ctx, nil, nil
	return nil
}

func (p *terminalPart) wrap(next loader.Sink, r *runState) loader.Sink {
	notices := p.stderr
	if r.spec.Outputs.Progress {
		figures := live.NewFigures(next, time.Second, r.start)
		next = figures
		p.display = progress.Start(p.terminal, plannedProgress(r.spec), r.spec.Outputs.Color, r.start,
			func(now time.Time) progress.Figures { return progress.Figures(figures.Figures(now)) })
		notices = p.display // above the line, so that it stays whole
	}
	p.finished, p.noticed = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.noticed)
		select {
		case <-p.ctx.Done():
			if p.talk {
				fmt.Fprintln(notices, "Stopping: letting the requests in flight finish, then reporting (Ctrl-C again to quit at once)")
			}
		case <-p.finished:
		}
	}()
	return next
}

// finish removes the progress line, once the notice is out, so that the terminal is clean for
// the report.
func (p *terminalPart) finish(*runState) section {
	if p.finished != nil {
		close(p.finished)
		<-p.noticed
	}
	if p.display != nil {
		p.display.Stop()
	}
	return nil
}
