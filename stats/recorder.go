package stats

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Options shape what a Recorder keeps.
type Options struct {
	// Interval is the width of a timeline bucket; 0 means one second.
	Interval time.Duration
	// RampEnd separates the ramp from the steady state: results intended before it belong to
	// the ramp. 0 means the run has no ramp.
	RampEnd time.Duration
}

// Recorder accumulates a run's results. It implements loader.Sink; like every sink it is fed
// from one goroutine and holds no locks.
type Recorder struct {
	targets []urls.Target
	opt     Options

	requests  int64 // every request that ended: transactions + failures
	hits      int64 // siege's transactions: responses that are not 408 or 5xx
	successes int64
	failures  int64
	afterStop int64
	resent    int64
	clamped   int64 // latencies beyond the histogram's range, recorded at its top

	hitTime  time.Duration // summed response time of transactions
	busyTime time.Duration // summed response time of every request (concurrency)
	minHit   time.Duration
	maxHit   time.Duration

	bodyBytes int64
	status    [1000]int64
	errors    [loader.NumErrKinds]int64
	perUser   []int64        // transactions per user
	hist      *hdr.Histogram // response time of transactions, from the intended start
	service   *hdr.Histogram // service time of transactions, from the actual send
	lag       *hdr.Histogram // actual minus intended send time of every request
	urls      []*urlRecord   // nil until the URL's first result: most of a long list may never be reached

	queued     int64 // open model: requests that waited for a free user
	queuedWait time.Duration
	queuedMax  time.Duration

	timeline []bucket
	steady   bucket // results intended after the ramp

	pages        pageRecord // page visits, when users load pages like a browser
	decodedBytes int64
	resourceRow  urlRecord // what per-URL rows leave out: resources, counted in pages instead
}

// urlRecord is the per-URL share of a Recorder.
type urlRecord struct {
	hits, failures, bytes int64
	hitTime               time.Duration
	maxHit                time.Duration
	status                map[uint16]int64
	hist                  *hdr.PackedHistogram // allocated at the first transaction
	// page has the URL's page visits and their resources; nil until it has one, which keeps
	// the record of a URL only ever requested alone at 64 bytes.
	page *pageRecord
}

// pageRecord returns the URL's page record, making it at its first use.
func (u *urlRecord) pageRecord() *pageRecord {
	if u.page == nil {
		u.page = &pageRecord{}
	}
	return u.page
}

var _ loader.Sink = (*Recorder)(nil)

// NewRecorder prepares a recorder for a run over targets.
func NewRecorder(targets []urls.Target, opt Options) *Recorder {
	if opt.Interval <= 0 {
		opt.Interval = time.Second
	}
	return &Recorder{
		targets: targets,
		opt:     opt,
		hist:    newHistogram(),
		service: newHistogram(),
		lag:     newHistogram(),
		urls:    make([]*urlRecord, len(targets)),
	}
}

// Record implements loader.Sink.
func (r *Recorder) Record(batch []loader.Result) {
	for i := range batch {
		r.add(&batch[i])
	}
}

// add books one result under siege's rules: a request with no response, a 408 or a 5xx is a
// failure; every other response is a transaction, successful when below 400 or a 401/407.
// Times are response times from the intended start, which in the closed model is the send.
func (r *Recorder) add(res *loader.Result) {
	if res.Kind == loader.KindPage {
		v := r.units(res.ResponseTime())
		r.pages.addPage(res, v, true)
		r.url(res.Target).pageRecord().addPage(res, v, false)
		return
	}
	r.pages.addRequest(res)
	if res.Kind == loader.KindResource || res.Redirected() || res.OffHost {
		r.url(res.Target).pageRecord().addRequest(res) // nothing else counts in page figures
	}
	rt := res.ResponseTime()
	r.requests++
	r.busyTime += rt
	if res.AfterStop {
		r.afterStop++
	}
	if res.Resent {
		r.resent++
	}
	r.recordLag(res)
	b := r.bucketFor(res.Intended + rt)
	b.requests++
	var st *bucket
	if r.opt.RampEnd > 0 && res.Intended >= r.opt.RampEnd {
		st = &r.steady
		st.requests++
	}

	// A URL's own figures leave its page's resources out; they are in its page figures.
	u := &r.resourceRow
	if res.Kind != loader.KindResource {
		u = r.url(res.Target)
	}
	if res.Err == loader.ErrNone {
		r.status[res.Status%1000]++
		if u.status == nil {
			u.status = map[uint16]int64{}
		}
		u.status[res.Status]++
		// A body that failed half way is no data transferred, decoded or not.
		r.bodyBytes += res.BodyBytes
		r.decodedBytes += res.Decoded
		u.bytes += res.BodyBytes
		b.bytes += res.BodyBytes
	} else {
		r.errors[res.Err]++
	}
	if res.Failed() {
		r.failures++
		u.failures++
		b.failures++
		if st != nil {
			st.failures++
		}
		return
	}

	r.hits++
	if res.Successful() {
		r.successes++
		b.successes++
	}
	for int(res.User) >= len(r.perUser) {
		r.perUser = append(r.perUser, 0)
	}
	r.perUser[res.User]++
	r.hitTime += rt
	if r.hits == 1 || rt < r.minHit {
		r.minHit = rt
	}
	r.maxHit = max(r.maxHit, rt)
	u.hits++
	u.hitTime += rt
	u.maxHit = max(u.maxHit, rt)

	v := r.units(rt)
	// Every histogram covers the clamped range, so recording cannot fail.
	_ = r.hist.RecordValue(v)
	_ = r.service.RecordValue(r.units(res.Latency))
	if u.hist == nil {
		u.hist = newSparseHistogram()
	}
	_ = u.hist.RecordValue(v)
	b.addHit(rt, v)
	if st != nil {
		st.addHit(rt, v)
	}
}

// url returns target i's record, making it at its first result.
func (r *Recorder) url(i int32) *urlRecord {
	u := r.urls[i]
	if u == nil {
		u = &urlRecord{}
		r.urls[i] = u
	}
	return u
}

// recordLag keeps how late each request was sent, and the open model's waits for a free user.
func (r *Recorder) recordLag(res *loader.Result) {
	lag := res.Start - res.Intended
	_ = r.lag.RecordValue(r.units(lag))
	if res.Queued {
		r.queued++
		r.queuedWait += lag
		r.queuedMax = max(r.queuedMax, lag)
	}
}

// units converts to histogram units and counts what had to be clamped.
func (r *Recorder) units(d time.Duration) int64 {
	v, clamped := toUnits(d)
	if clamped {
		r.clamped++
	}
	return v
}

// bucketFor returns the timeline bucket of a moment of the run, growing the timeline as needed.
func (r *Recorder) bucketFor(at time.Duration) *bucket {
	i := int(max(at, 0) / r.opt.Interval)
	for i >= len(r.timeline) {
		r.timeline = append(r.timeline, bucket{})
	}
	return &r.timeline[i]
}
