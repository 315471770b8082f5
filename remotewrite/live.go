package remotewrite

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Live keeps a run's counts and latencies as the results arrive, by the report's rules (a
// page visit is no request; a resource counts overall, not for its page's URL; a failure's
// time is no transaction's), so that the series sent during the run lead to the report's,
// sent at its end, without a bucket count ever going down. It passes every batch on to next.
// Record is called by the loader; Series from any other goroutine (a mutex guards the state).
type Live struct {
	next    loader.Sink
	targets []urls.Target

	mu    sync.Mutex
	all   liveFigures
	byURL []liveFigures // by target index, nil until the target's first result
}

// liveFigures are the counts and latencies of a URL, or of the whole run.
type liveFigures struct {
	requests, failures int64
	sum                time.Duration
	latency            *hdr.PackedHistogram
}

var _ loader.Sink = (*Live)(nil)

// NewLive wraps next; targets are the loader's, whose indices the results carry.
func NewLive(next loader.Sink, targets []urls.Target) *Live {
	return &Live{next: next, targets: targets, byURL: make([]liveFigures, len(targets)),
		all: liveFigures{latency: hdrcodec.NewSparseHistogram()}}
}

// Record implements loader.Sink.
func (l *Live) Record(batch []loader.Result) {
	l.mu.Lock()
	for i := range batch {
		r := &batch[i]
		if r.Kind == loader.KindPage {
			continue
		}
		l.all.record(r)
		if r.Kind != loader.KindResource && int(r.Target) < len(l.byURL) {
			u := &l.byURL[r.Target]
			if u.latency == nil {
				u.latency = hdrcodec.NewSparseHistogram()
			}
			u.record(r)
		}
	}
	l.mu.Unlock()
	l.next.Record(batch)
}

// record books r as the recorder does: its time, clamped to the histogram's range, when it is
// a transaction.
func (f *liveFigures) record(r *loader.Result) {
	f.requests++
	if r.Failed() {
		f.failures++
		return
	}
	rt := r.ResponseTime()
	f.sum += rt
	v, _ := hdrcodec.ToUnits(rt)
	_ = f.latency.RecordValue(v) // ToUnits clamped v into the range
}

// Series are the figures so far at time t, each with the labels base (see RunLabels).
func (l *Live) Series(base []Label, t time.Time) []Series {
	var f figures
	l.mu.Lock()
	f.requests, f.failures = l.all.requests, l.all.failures
	f.transactions = f.requests - f.failures
	f.latency = FromHDR(l.all.latency.ForEachBucket, l.all.sum.Seconds())
	for i, u := range l.byURL {
		if u.latency == nil {
			continue // the report lists it with no request; sent at the end
		}
		t := l.targets[i]
		f.addURL(urlFigures{method: t.Method, url: urls.Redacted(t.URL), requests: u.requests, failures: u.failures,
			latency: FromHDR(u.latency.ForEachBucket, u.sum.Seconds())})
	}
	l.mu.Unlock()
	return f.series(base, t)
}
