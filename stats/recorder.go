package stats

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Recorder accumulates a run's results. It implements loader.Sink; like every sink it is fed
// from one goroutine and holds no locks.
type Recorder struct {
	targets []urls.Target

	requests  int64 // every request that ended: transactions + failures
	hits      int64 // siege's transactions: responses that are not 408 or 5xx
	successes int64
	failures  int64
	afterStop int64
	clamped   int64 // latencies beyond the histogram's range, recorded at its top

	hitTime  time.Duration // summed latency of transactions (response time)
	busyTime time.Duration // summed latency of every request (concurrency)
	minHit   time.Duration
	maxHit   time.Duration

	bodyBytes int64
	status    [1000]int64
	errors    [loader.NumErrKinds]int64
	perUser   []int64 // transactions per user
	hist      *hdr.Histogram
	urls      []urlRecord
}

// urlRecord is the per-URL share of a Recorder.
type urlRecord struct {
	hits, failures, bytes int64
	hitTime               time.Duration
	maxHit                time.Duration
	status                map[uint16]int64
	hist                  *hdr.PackedHistogram // allocated at the first transaction
}

var _ loader.Sink = (*Recorder)(nil)

// NewRecorder prepares a recorder for a run over targets with the given number of users.
func NewRecorder(targets []urls.Target, users int) *Recorder {
	return &Recorder{
		targets: targets,
		perUser: make([]int64, users),
		hist:    newHistogram(),
		urls:    make([]urlRecord, len(targets)),
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
func (r *Recorder) add(res *loader.Result) {
	r.requests++
	r.busyTime += res.Latency
	if res.AfterStop {
		r.afterStop++
	}
	u := &r.urls[res.Target]
	if res.Err != loader.ErrNone {
		r.errors[res.Err]++
		r.failures++
		u.failures++
		return
	}
	r.status[res.Status%1000]++
	if u.status == nil {
		u.status = map[uint16]int64{}
	}
	u.status[res.Status]++
	r.bodyBytes += res.BodyBytes
	u.bytes += res.BodyBytes
	if res.Failed() {
		r.failures++
		u.failures++
		return
	}
	r.hits++
	if res.Successful() {
		r.successes++
	}
	r.perUser[res.User]++
	r.hitTime += res.Latency
	if r.hits == 1 || res.Latency < r.minHit {
		r.minHit = res.Latency
	}
	r.maxHit = max(r.maxHit, res.Latency)
	u.hits++
	u.hitTime += res.Latency
	u.maxHit = max(u.maxHit, res.Latency)

	v, clamped := toUnits(res.Latency)
	if clamped {
		r.clamped++
	}
	// Both histograms cover every clamped value, so these cannot fail.
	_ = r.hist.RecordValue(v)
	if u.hist == nil {
		u.hist = newSparseHistogram()
	}
	_ = u.hist.RecordValue(v)
}
