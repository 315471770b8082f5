package live

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/loader"
)

// Figures keeps the running figures a progress display shows: totals, and the rate and p99 of the
// last complete interval. It passes every batch on to next. Unlike the Recorder it is read from
// another goroutine, so it guards its state with a mutex (taken once per batch).
type Figures struct {
	next     loader.Sink
	interval time.Duration

	mu       sync.Mutex
	requests int64
	failures int64
	cur      *hdr.Histogram // response times of the interval in progress
	curCount int64
	curStart time.Time
	last     Snapshot
}

// Snapshot is a snapshot for display.
type Snapshot struct {
	Requests int64 // ended so far
	Failures int64
	// Rate and P99 are of the last complete interval; HaveInterval is false before one ended.
	Rate         float64 // requests per second
	P99          time.Duration
	HaveInterval bool
}

var _ loader.Sink = (*Figures)(nil)

// NewFigures wraps next; interval is how often the rate and p99 are renewed (0 means one second).
// start is the moment the run starts.
func NewFigures(next loader.Sink, interval time.Duration, start time.Time) *Figures {
	if interval <= 0 {
		interval = time.Second
	}
	// Two significant digits are plenty for a display and keep the histogram at 20 KiB.
	return &Figures{next: next, interval: interval, cur: hdr.New(hdrcodec.HistLowest, hdrcodec.HistHighest, 2), curStart: start}
}

// Record implements loader.Sink.
func (l *Figures) Record(batch []loader.Result) {
	l.mu.Lock()
	for i := range batch {
		r := &batch[i]
		if r.Kind == loader.KindPage {
			continue // a page visit, not a request
		}
		l.requests++
		l.curCount++
		if r.Failed() {
			l.failures++
			continue
		}
		v, _ := hdrcodec.ToUnits(r.ResponseTime())
		_ = l.cur.RecordValue(v)
	}
	l.mu.Unlock()
	l.next.Record(batch)
}

// Figures returns the current snapshot, closing the interval in progress if it has ended by now.
// It is safe to call from any goroutine.
func (l *Figures) Figures(now time.Time) Snapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	if elapsed := now.Sub(l.curStart); elapsed >= l.interval {
		l.last.Rate = float64(l.curCount) / elapsed.Seconds()
		l.last.P99 = 0
		if l.cur.TotalCount() > 0 {
			l.last.P99 = hdrcodec.FromUnits(l.cur.ValueAtPercentile(99))
		}
		l.last.HaveInterval = true
		l.cur.Reset()
		l.curCount = 0
		l.curStart = now
	}
	f := l.last
	f.Requests, f.Failures = l.requests, l.failures
	return f
}
