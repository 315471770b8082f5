package gate

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// WindowMinRequests is how many requests must have ended in a window before its gates are
// judged, unless the run has lasted a whole window: a slow first request, or the first few of a
// cold server, must not stop a run that has barely begun. A run that has lasted a whole window
// is judged on what it holds, however little, so that a server that stalls (and so ends few
// requests) is still caught.
const WindowMinRequests = 20

// windowSlots is how many slots a window is cut into: it slides a tenth of its width at a time.
const windowSlots = 10

// Window keeps the figures of the requests that ended in the last Width of a run, for gates
// judged while the run goes (--abort-on). It passes every batch on to next. Unlike the Recorder
// it is read from another goroutine, so it guards its state with a mutex (taken once per batch).
// Its latency histograms keep two significant digits (1 %), plenty to judge a limit, and 20 KiB
// each.
type Window struct {
	next  loader.Sink
	width time.Duration
	slot  time.Duration

	// now, when set (SetClock), is the run's clock: a request is counted when the window
	// receives it, if that is later than when it ended.
	now func() time.Duration

	mu      sync.Mutex
	slots   [windowSlots]windowSlot // a ring: slot k of the run is slots[k%windowSlots]
	scratch *hdr.Histogram          // the slots' histograms added, at each judgement
}

// windowSlot holds the requests that ended in one slot of the run.
type windowSlot struct {
	k     int64 // the slot of the run it holds; -1 when empty
	tally stats.Tally
	sum   time.Duration // response times of the transactions
	top   time.Duration // the longest of them
	hist  *hdr.Histogram
}

var _ loader.Sink = (*Window)(nil)

// NewWindow wraps next in a window of the given width (at least a millisecond).
func NewWindow(next loader.Sink, width time.Duration) *Window {
	width = max(width, time.Millisecond)
	w := &Window{next: next, width: width, slot: width / windowSlots, scratch: hdr.New(hdrcodec.HistLowest, hdrcodec.HistHighest, 2)}
	for i := range w.slots {
		w.slots[i] = windowSlot{k: -1, hist: hdr.New(hdrcodec.HistLowest, hdrcodec.HistHighest, 2)}
	}
	return w
}

// SetClock gives the window the run's clock (the time since its start), before the first
// Record. A browser-like visit hands over its requests when the whole page is loaded, its
// resources included, which on a slow site is longer than a window: counted by when they ended,
// the page's own request would already have left the window when it arrives, and a gate on a
// stalled site would wait for many visits. With a clock, a request counts in the slot in which
// the window receives it, when that is later than its end.
func (w *Window) SetClock(now func() time.Duration) { w.now = now }

// Record implements loader.Sink. A request counts in the slot in which it ended (from its
// intended start, as in the timeline), or arrived (see SetClock); one that ended before the
// window is left out.
func (w *Window) Record(batch []loader.Result) {
	var arrived time.Duration
	if w.now != nil {
		arrived = w.now()
	}
	w.mu.Lock()
	for i := range batch {
		r := &batch[i]
		if r.Kind == loader.KindPage {
			continue // a page visit, not a request
		}
		rt := r.ResponseTime()
		k := int64(max(r.Intended+rt, arrived, 0) / w.slot)
		s := &w.slots[k%windowSlots]
		if s.k > k {
			continue // the slot has moved on: this request ended before the window
		}
		if s.k < k {
			s.reset(k)
		}
		if !s.tally.Record(r) {
			continue
		}
		s.sum += rt
		s.top = max(s.top, rt)
		v, _ := hdrcodec.ToUnits(rt)
		_ = s.hist.RecordValue(v) // toUnits clamps into the histogram's range
	}
	w.mu.Unlock()
	w.next.Record(batch)
}

func (s *windowSlot) reset(k int64) {
	s.hist.Reset()
	*s = windowSlot{k: k, hist: s.hist}
}

// Figures are the window's figures at moment at of the run (from its start), in a Report's
// fields, so that a gate reads them as it reads a whole run's: requests, transactions, their
// successes and failures, availability, mean, longest and percentile response times, and the
// transaction rate over the part of the window the run has lasted. Ready says whether the
// window holds enough to be judged (see WindowMinRequests). Safe from any goroutine.
func (w *Window) Figures(at time.Duration) (rep stats.Report, ready bool) {
	rep, _, ready = w.figures(at, nil)
	return rep, ready
}

// figures is Figures, with the window's percentiles qs (0-100; 0 for none) in seconds besides,
// read from the same histogram under the same lock: a Report keeps only the fixed ones, and the
// window keeps no encoded histogram for a p(N) to read.
func (w *Window) figures(at time.Duration, qs []float64) (rep stats.Report, values []float64, ready bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := int64(max(at, 0) / w.slot)
	first := max(now-windowSlots+1, 0)
	w.scratch.Reset()
	var t stats.Tally
	var sum, top time.Duration
	for i := range w.slots {
		s := &w.slots[i]
		if s.k < first || s.k > now {
			continue
		}
		t.Add(s.tally)
		sum += s.sum
		top = max(top, s.top)
		w.scratch.Merge(s.hist) // same range: nothing is dropped
	}
	rep.Requests, rep.Transactions = t.Requests, t.Transactions
	rep.SuccessfulTransactions, rep.FailedTransactions = t.Successful, t.Failed
	if n := t.Transactions + t.Failed; n > 0 {
		rep.Availability = float64(t.Transactions) / float64(n) * 100
	}
	values = make([]float64, len(qs))
	if t.Transactions > 0 {
		rep.ResponseTime = (sum / time.Duration(t.Transactions)).Seconds()
		rep.LongestTransaction = top.Seconds()
		rep.Percentiles.Quantiles(func(q float64, v *float64) { *v = w.quantile(q) })
		rep.Percentiles.Max = top.Seconds()
		for i, q := range qs {
			if q > 0 {
				values[i] = w.quantile(q)
			}
		}
	}
	if span := at - time.Duration(first)*w.slot; span > 0 {
		rep.TransactionRate = float64(t.Transactions) / span.Seconds()
	}
	rep.ElapsedTime = min(at, w.width).Seconds()
	return rep, values, t.Requests >= WindowMinRequests || (at >= w.width && t.Requests > 0)
}

// quantile reads percentile q (0-100) of the window's requests in seconds, from scratch as
// figures has just filled it; the caller holds mu.
func (w *Window) quantile(q float64) float64 {
	return hdrcodec.FromUnits(w.scratch.ValueAtPercentile(q)).Seconds()
}

// Width is the window's width.
func (w *Window) Width() time.Duration { return w.width }

// Fired judges gates (from ParseLiveGate) on the window at moment at of the run and returns the
// first that holds, which means the run must stop. Nothing fires before the window is ready,
// and a gate on response times does not fire on a window without transactions, which has none.
// A gate on a percentile reads it from the window's histogram, whichever percentile it names.
func (w *Window) Fired(gates []Gate, at time.Duration) (stats.Abort, bool) {
	figs := make([]stats.Figure, len(gates))
	qs := make([]float64, len(gates))
	for i, g := range gates {
		figs[i], _ = stats.LookupFigure(g.Metric)
		if q := figs[i].Percentile; q > 0 && q < 100 {
			qs[i] = q
		}
	}
	rep, values, ready := w.figures(at, qs)
	if !ready {
		return stats.Abort{}, false
	}
	for i, g := range gates {
		m := figs[i]
		if m.Name == "" || (m.Latency && rep.Transactions == 0) {
			continue
		}
		v, ok := values[i], true
		if qs[i] == 0 {
			v, ok = m.Run(&rep)
		}
		if ok && gateHolds(g.Op, v, g.Value) {
			return stats.Abort{Gate: g.Label(), Value: v, At: at.Round(time.Millisecond).Seconds(), Window: w.width.Seconds()}, true
		}
	}
	return stats.Abort{}, false
}
