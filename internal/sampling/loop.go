// Package sampling reads a source before, every interval during, and after a run. The server's
// load (sysload) and the database's counters (dbload) are both read this way; only what a
// reading holds differs.
package sampling

import (
	"context"
	"sync"
	"time"
)

// finalReadTimeout bounds the "after" reading that Stop takes. That reading ignores the
// cancellation of the run's context (an interrupted run still deserves it), so it needs a
// bound of its own against a source that does not time out by itself.
const finalReadTimeout = 10 * time.Second

// Loop calls read before, every interval during, and after a run, and hands each reading (or
// its error) to add. add is called from one goroutine at a time: first Start's, then the
// loop's, then Stop's, so what it folds the readings into needs no lock.
type Loop[S any] struct {
	read   func(context.Context) (S, error)
	add    func(S, error)
	parent context.Context
	cancel context.CancelFunc
	done   chan struct{}

	stopOnce sync.Once
}

// Start takes the first reading at once (synchronously, so the "before" reading precedes the
// load) and then one every interval in its own goroutine until Stop. An interval <= 0 takes
// only the before and after readings. Cancelling ctx ends the periodic readings but not the
// final one, so that an interrupted run still reports.
func Start[S any](ctx context.Context, read func(context.Context) (S, error), add func(S, error), interval time.Duration) *Loop[S] {
	loopCtx, cancel := context.WithCancel(ctx)
	l := &Loop[S]{read: read, add: add, parent: ctx, cancel: cancel, done: make(chan struct{})}
	add(read(ctx))
	go l.loop(loopCtx, interval)
	return l
}

func (l *Loop[S]) loop(ctx context.Context, interval time.Duration) {
	defer close(l.done)
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
			s, err := l.read(ctx)
			if err != nil && ctx.Err() != nil {
				// Cut short by Stop or by the run's end: not the source's failure.
				return
			}
			l.add(s, err)
		}
	}
}

// Stop takes the final reading and stops the goroutine. It waits for a reading in progress to
// be abandoned, not finished, so it returns promptly. Later calls wait for the first to finish
// and read nothing more: once any call returns, add has had its last reading.
func (l *Loop[S]) Stop() {
	l.stopOnce.Do(func() {
		l.cancel()
		<-l.done
		ctx, cancel := context.WithTimeout(context.WithoutCancel(l.parent), finalReadTimeout)
		defer cancel()
		l.add(l.read(ctx))
	})
}
