package sysload

import (
	"context"
	"sync"
	"time"
)

// finalSampleTimeout bounds the "after" reading that Stop takes. That reading ignores the
// cancellation of the run's context (an interrupted run still deserves it), so it needs a
// bound of its own against a source that does not time out by itself.
const finalSampleTimeout = 10 * time.Second

// Monitor samples a source before, every interval during, and after a run.
type Monitor struct {
	src    Source
	parent context.Context
	cancel context.CancelFunc
	done   chan struct{}

	// acc is written by Start, then only by the sampling goroutine, then only by Stop once
	// that goroutine has exited: ownership passes along, so no lock is needed.
	acc accumulator

	stopOnce sync.Once
	result   Summary
}

// Start takes the first sample at once (synchronously, so the "before" reading precedes the
// load) and then one every interval in its own goroutine until Stop. An interval <= 0 takes
// only the before and after readings. Cancelling ctx ends the periodic readings but not the
// final one, so that an interrupted run still reports its load. spec is what Summary.Source
// reports.
func Start(ctx context.Context, src Source, spec string, interval time.Duration) *Monitor {
	loopCtx, cancel := context.WithCancel(ctx)
	m := &Monitor{
		src:    src,
		parent: ctx,
		cancel: cancel,
		done:   make(chan struct{}),
	}
	m.acc.sum.Source = spec
	m.acc.add(src.Sample(ctx))
	go m.loop(loopCtx, interval)
	return m
}

func (m *Monitor) loop(ctx context.Context, interval time.Duration) {
	defer close(m.done)
	if interval <= 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s, err := m.src.Sample(ctx)
			if err != nil && ctx.Err() != nil {
				// Cut short by Stop or by the run's end: not the server's failure.
				return
			}
			m.acc.add(s, err)
		}
	}
}

// Stop takes the final sample, stops the goroutine and returns the summary. It waits for a
// reading in progress to be abandoned, not finished, so it returns promptly. It is safe to
// call more than once: later calls return the first call's summary without sampling again.
func (m *Monitor) Stop() Summary {
	m.stopOnce.Do(func() {
		m.cancel()
		<-m.done
		ctx, cancel := context.WithTimeout(context.WithoutCancel(m.parent), finalSampleTimeout)
		defer cancel()
		m.acc.add(m.src.Sample(ctx))
		m.result = m.acc.summary()
	})
	return m.result
}
