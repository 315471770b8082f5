package sysload

import (
	"context"
	"time"

	"github.com/webload/webload/internal/sampling"
	"github.com/webload/webload/urls"
)

// Monitor samples a source before, every interval during, and after a run.
type Monitor struct {
	loop *sampling.Loop[Sample]
	// acc is written by Start, then only by the sampling goroutine, then only by Stop once
	// that goroutine has exited: ownership passes along, so no lock is needed.
	acc accumulator
}

// Start takes the first sample at once (synchronously, so the "before" reading precedes the
// load) and then one every interval in its own goroutine until Stop. An interval <= 0 takes
// only the before and after readings. Cancelling ctx ends the periodic readings but not the
// final one, so that an interrupted run still reports its load. spec is what Summary.Source
// reports, with any password in it hidden.
func Start(ctx context.Context, src Source, spec string, interval time.Duration) *Monitor {
	m := &Monitor{}
	m.acc.sum.Source = urls.Redacted(spec)
	m.loop = sampling.Start(ctx, src.Sample, m.acc.add, interval)
	return m
}

// Stop takes the final sample, stops the goroutine and returns the summary. It waits for a
// reading in progress to be abandoned, not finished, so it returns promptly. It is safe to
// call more than once: later calls return the first call's summary without sampling again.
func (m *Monitor) Stop() Summary {
	m.loop.Stop() // once it returns, nothing adds to acc any more
	return m.acc.summary()
}
