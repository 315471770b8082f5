// Package progress draws webload's live progress line on a terminal: elapsed against planned
// time (or requests done against planned), the rate and p99 of the last interval, failures.
package progress

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// Figures is what the display shows; a run fills it from its live statistics.
type Figures struct {
	Requests, Failures int64
	// Rate (requests per second) and P99 are of the last complete interval.
	Rate         float64
	P99          time.Duration
	HaveInterval bool
}

// Plan is what progress is measured against: a run time, else a request count, else nothing
// (the line then shows figures without a bar).
type Plan struct {
	Duration time.Duration
	Requests int64
}

// Display is a live progress line. Start it when the run starts and Stop it before the report.
type Display struct {
	p       *mpb.Progress
	bar     *mpb.Bar
	plan    Plan
	start   time.Time
	figures func(time.Time) Figures
	latest  atomic.Pointer[Figures]
	color   bool
	done    chan struct{}
	stopped chan struct{}
}

// refresh is how often the line is redrawn and the figures read.
const refresh = 200 * time.Millisecond

// Start draws on w, which the caller has checked is a terminal. figures is called from the
// display's own goroutine; color allows ANSI colour (off when NO_COLOR is set).
func Start(w io.Writer, plan Plan, color bool, start time.Time, figures func(time.Time) Figures) *Display {
	d := &Display{
		plan: plan, start: start, figures: figures, color: color,
		done: make(chan struct{}), stopped: make(chan struct{}),
	}
	d.latest.Store(&Figures{})
	d.p = mpb.New(mpb.WithOutput(w), mpb.ForceTTY(), mpb.WithRefreshRate(refresh), mpb.WithWidth(30))
	filler := mpb.BarStyle().Lbound("[").Rbound("]")
	var builder mpb.BarFillerBuilder = filler
	total := int64(0)
	switch {
	case plan.Duration > 0:
		total = plan.Duration.Milliseconds()
	case plan.Requests > 0:
		total = plan.Requests
	default:
		builder = mpb.NopStyle()
	}
	d.bar = d.p.New(total, builder,
		mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return d.progressText() })),
		mpb.AppendDecorators(decor.Any(func(decor.Statistics) string { return d.figuresText() })),
		mpb.BarRemoveOnComplete(),
	)
	go d.update()
	return d
}

// update reads the figures and moves the bar until Stop.
func (d *Display) update() {
	defer close(d.stopped)
	tick := time.NewTicker(refresh)
	defer tick.Stop()
	for {
		now := time.Now()
		f := d.figures(now)
		d.latest.Store(&f)
		switch {
		case d.plan.Duration > 0:
			d.bar.SetCurrent(min(now.Sub(d.start), d.plan.Duration).Milliseconds())
		case d.plan.Requests > 0:
			d.bar.SetCurrent(min(f.Requests, d.plan.Requests))
		}
		select {
		case <-d.done:
			return
		case <-tick.C:
		}
	}
}

// progressText is "elapsed / planned" (or requests done / planned).
func (d *Display) progressText() string {
	elapsed := time.Since(d.start).Truncate(time.Second)
	switch {
	case d.plan.Duration > 0:
		return fmt.Sprintf("%v / %v ", elapsed, d.plan.Duration)
	case d.plan.Requests > 0:
		return fmt.Sprintf("%v  %d / %d req ", elapsed, d.latest.Load().Requests, d.plan.Requests)
	}
	return fmt.Sprintf("%v ", elapsed)
}

// figuresText is the live figures after the bar.
func (d *Display) figuresText() string {
	f := d.latest.Load()
	failed := fmt.Sprintf("%d failed", f.Failures)
	if f.Failures > 0 && d.color {
		failed = "\x1b[31m" + failed + "\x1b[0m"
	}
	text := fmt.Sprintf(" %d req  %s", f.Requests, failed)
	if f.HaveInterval {
		text = fmt.Sprintf(" %d req  %.0f req/s  %s  p99 %.1f ms", f.Requests, f.Rate, failed,
			float64(f.P99)/float64(time.Millisecond))
	}
	return text
}

// Write prints p above the progress line, so notices do not break it.
func (d *Display) Write(p []byte) (int, error) { return d.p.Write(p) }

// Stop removes the line and waits until the terminal is clean for the report.
func (d *Display) Stop() {
	close(d.done)
	<-d.stopped
	d.bar.SetTotal(-1, true)
	d.p.Wait()
}
