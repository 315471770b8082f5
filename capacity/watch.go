package capacity

import (
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// DefaultWindow is the live check's period when NewWatch is given none.
const DefaultWindow = time.Second

// Badly is how far past its limit a window must be for a step to end early: twice an upper
// limit (p95 of 1 s against p95<500ms), half a lower one. A step merely failing the SLO runs
// to its end, so that its figures compare with the passing ones; one this far past it would
// only pile up a queue on the server, and make the next step start behind.
const Badly = 2

// badWindows is how many windows in a row must break the SLO badly: a queue that grows
// breaks every window after the first, while a pause of the machine (a GC, a busy neighbour)
// spoils one.
const badWindows = 2

// minWindow is the transactions a window needs before it is judged: a window of fewer is
// extended, so that one slow request at 10 req/s does not end a step.
const minWindow = 20

// relaxed turns the SLO into the gates a window must fail for its step to end early: each
// limit moved by Badly the lenient way. Gates of == and != have no lenient way and are left
// out.
func relaxed(slo []gate.Gate) []gate.Gate {
	var out []gate.Gate
	for _, g := range slo {
		switch g.Op {
		case "<", "<=":
			g.Value *= Badly
		case ">", ">=":
			g.Value /= Badly
		default:
			continue
		}
		out = append(out, g)
	}
	return out
}

// Watch is the sink of a step. It passes the results of requests intended after the settle
// time on to the step's statistics, moved so that the step starts at 0, and judges every window
// of the whole step, settle time included, against the relaxed SLO: badWindows failing in a
// row call stop. It is fed from the loader's one delivering goroutine, as every sink is.
type Watch struct {
	next    loader.Sink
	settle  time.Duration
	window  time.Duration
	bad     []gate.Gate
	targets []urls.Target
	stop    func()

	cur     *stats.Recorder // the window being filled; nil until its first result
	curEnd  time.Duration   // when the window may be judged, by the end times of results
	moved   []loader.Result // reused for the batch passed on
	strikes int             // windows in a row that broke the relaxed SLO
	fired   bool
	firedAt stats.Report // the window that fired
}

var _ loader.Sink = (*Watch)(nil)

// NewWatch returns the sink of a step over targets whose statistics are next: the results
// intended in the first settle of the step are left out of them, and windows of window
// (DefaultWindow when 0) that break slo Badly, badWindows in a row, call stop, once, from the
// delivering goroutine: typically the loader's Abort.
func NewWatch(next loader.Sink, targets []urls.Target, settle, window time.Duration, slo []gate.Gate, stop func()) *Watch {
	if window <= 0 {
		window = DefaultWindow
	}
	return &Watch{next: next, settle: settle, window: window, bad: relaxed(slo), targets: targets, stop: stop}
}

// Fired returns the window that ended the step early, if one did. Read it once the loader's
// Run has returned.
func (w *Watch) Fired() (stats.Report, bool) { return w.firedAt, w.fired }

// Record implements loader.Sink.
func (w *Watch) Record(batch []loader.Result) {
	w.moved = w.moved[:0]
	for i := range batch {
		r := &batch[i]
		w.observe(batch[i : i+1])
		if r.Intended >= w.settle {
			m := *r
			m.Intended -= w.settle
			m.Start -= w.settle
			w.moved = append(w.moved, m)
		}
	}
	if len(w.moved) > 0 {
		w.next.Record(w.moved)
	}
}

// observe adds the one result of one to its window, judging the window first when the result
// ended after it.
func (w *Watch) observe(one []loader.Result) {
	if w.fired || len(w.bad) == 0 {
		return
	}
	end := one[0].Intended + one[0].ResponseTime()
	if w.cur != nil && end >= w.curEnd {
		w.judge()
	}
	if w.cur == nil {
		w.cur = stats.NewRecorder(w.targets, stats.Options{Interval: w.window})
		w.curEnd = (end/w.window + 1) * w.window
	}
	w.cur.Record(one)
}

// judge checks the window when it has enough transactions, and starts a new one; a window of
// too few goes on, judged with the next.
func (w *Watch) judge() {
	rep := w.cur.Report(loader.Outcome{Elapsed: w.window}, stats.RunInfo{}, "")
	if rep.Transactions < minWindow {
		w.curEnd += w.window
		return
	}
	w.cur = nil
	if stats.Failed(gate.CheckGates(&rep, w.bad)) == 0 {
		w.strikes = 0
		return
	}
	if w.strikes++; w.strikes >= badWindows {
		w.fired, w.firedAt = true, rep
		w.stop()
	}
}
