package dbload

import (
	"context"
	"sync"
	"time"

	"github.com/webload/webload/internal/sampling"
)

// Monitor samples a database before, every interval during, and after a run.
type Monitor struct {
	src  Source
	loop *sampling.Loop[Sample]
	// acc is written by Start, then only by the sampling goroutine, then only by Stop once
	// that goroutine has exited: ownership passes along, so no lock is needed.
	acc accumulator

	closeOnce sync.Once
}

// Start takes the first reading at once, before the load, then one every interval until
// Stop; an interval <= 0 takes only the before and after readings. A database that cannot be
// read costs failed readings, never the run. name is what Summary.Source reports (Target's
// String, password hidden).
func Start(ctx context.Context, src Source, name string, interval time.Duration) *Monitor {
	m := &Monitor{src: src}
	m.acc.sum.Source = name
	m.loop = sampling.Start(ctx, src.Sample, m.acc.add, interval)
	return m
}

// Stop takes the final reading, closes the source and returns the summary. Later calls
// return the same summary without reading again.
func (m *Monitor) Stop() Summary {
	m.loop.Stop() // once it returns, nothing adds to acc any more
	m.closeOnce.Do(func() {
		_ = m.src.Close() // the readings are taken; a failed close loses nothing
	})
	return m.acc.summary()
}
