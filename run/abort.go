package run

import (
	"context"
	"sync"
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// DefaultAbortWindow is how far back --abort-on gates look when no window is given.
const DefaultAbortWindow = 10 * time.Second

// AbortWatch judges gates on a sliding window of a run's results while the run goes, and stops
// the run when one holds. It is a loader.Sink: put it in the run's sink chain. Build it with
// WatchGates, and Close it once the loader's Run has returned.
type AbortWatch struct {
	window *gate.Window
	gates  []gate.Gate

	mu    sync.Mutex
	fired *stats.Abort

	quit, ended chan struct{}
	closeOnce   sync.Once
}

var _ loader.Sink = (*AbortWatch)(nil)

// WatchGates wraps next in a gate.Window of width (DefaultAbortWindow when 0) and judges gates
// (from gate.ParseLiveGate) on it every `every` (a second when 0), from a goroutine of its own,
// reading the time since start, the moment the run starts. The first gate that holds is kept
// and stop is called, once: typically the loader's Abort, or whatever ends a capacity step early.
// Judging then ends. The window is not judged until it holds gate.WindowMinRequests requests or
// the run has lasted a whole window.
func WatchGates(next loader.Sink, gates []gate.Gate, width, every time.Duration, start time.Time, stop func()) *AbortWatch {
	if width <= 0 {
		width = DefaultAbortWindow
	}
	if every <= 0 {
		every = time.Second
	}
	w := &AbortWatch{window: gate.NewWindow(next, width), gates: gates, quit: make(chan struct{}), ended: make(chan struct{})}
	w.window.SetClock(func() time.Duration { return time.Since(start) })
	go w.judge(every, start, stop)
	return w
}

// Record implements loader.Sink.
func (w *AbortWatch) Record(batch []loader.Result) { w.window.Record(batch) }

// Window gives the window, whose figures can be read at any time (see gate.Window.Figures).
func (w *AbortWatch) Window() *gate.Window { return w.window }

// Close stops judging and returns the gate that fired, if one did. Call it after the loader's
// Run has returned; later calls return the same.
func (w *AbortWatch) Close() (stats.Abort, bool) {
	w.closeOnce.Do(func() { close(w.quit) })
	<-w.ended
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fired == nil {
		return stats.Abort{}, false
	}
	return *w.fired, true
}

func (w *AbortWatch) judge(every time.Duration, start time.Time, stop func()) {
	defer close(w.ended)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-w.quit:
			return
		case now := <-tick.C:
			a, fired := w.window.Fired(w.gates, now.Sub(start))
			if !fired {
				continue
			}
			w.mu.Lock()
			w.fired = &a
			w.mu.Unlock()
			stop()
			return
		}
	}
}

// abortPart stops each run when one of Spec.AbortOn holds over the last Spec.AbortWindow of
// its results, and says which in the run's RunInfo.Abort.
type abortPart struct {
	watch *AbortWatch // the run's
}

func (p *abortPart) start(context.Context, *runState) error {
	p.watch = nil
	return nil
}

func (p *abortPart) wrap(next loader.Sink, r *runState) loader.Sink {
	s := r.spec
	p.watch = WatchGates(next, s.AbortOn, s.AbortWindow, abortEvery(s.Interval), r.start, r.loader.Abort)
	return p.watch
}

// finish stops judging. Only a gate that stopped the run is its stop reason: the run may have
// ended anyway as the gate fired.
func (p *abortPart) finish(r *runState) section {
	if p.watch == nil {
		return nil
	}
	if a, fired := p.watch.Close(); fired && r.outcome.Stop == loader.Aborted {
		r.info.Abort = &a
	}
	return nil
}

// abortEvery is how often --abort-on is judged: every second, or every timeline interval when
// that is shorter. A minute's timeline must not let a broken server take a minute of load.
func abortEvery(interval time.Duration) time.Duration {
	if interval <= 0 {
		return time.Second
	}
	return min(interval, time.Second)
}

// GateAbortError says an --abort-on gate stopped the run, after every output was written with
// what was measured until then.
type GateAbortError struct{ Abort stats.Abort }

// Error names the gate and the window's value, e.g. "aborted by --abort-on p95>1s: ...".
func (e GateAbortError) Error() string { return "aborted by " + gate.AbortText(e.Abort) }
