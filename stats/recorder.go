package stats

import (
	"time"

	"github.com/webload/webload/content"
	"github.com/webload/webload/internal/hdrcodec"
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

// Recorder accumulates a run's results into its figures. It implements loader.Sink; like every
// sink it is fed from one goroutine and holds no locks.
type Recorder struct {
	targets []urls.Target
	opt     Options
	f       model
	perUser []int64 // transactions per user
	// resourceRow takes what per-URL rows leave out: resources, counted in pages instead.
	resourceRow urlFigures
	// rules is the number of #@extract rules of each target; nil when no target has any, which
	// keeps such runs' results from looking them up.
	rules  []int
	logins loginSteps
	hot    hotHistograms
}

var _ loader.Sink = (*Recorder)(nil)

// NewRecorder prepares a recorder for a run over targets.
func NewRecorder(targets []urls.Target, opt Options) *Recorder {
	if opt.Interval <= 0 {
		opt.Interval = time.Second
	}
	r := &Recorder{targets: targets, opt: opt, hot: hotHistograms{most: hotMost}}
	for i := range targets {
		if n := len(targets[i].Extracts); n > 0 {
			if r.rules == nil {
				r.rules = make([]int, len(targets))
			}
			r.rules[i] = n
		}
	}
	r.f.latency, r.f.service = denseLatency(), denseLatency()
	r.f.schedule = &scheduleFigures{lag: denseLatency()}
	r.f.urls = make([]*urlFigures, len(targets))
	if opt.RampEnd > 0 {
		r.f.steady = &steadyFigures{from: opt.RampEnd.Seconds()}
	}
	return r
}

// Record implements loader.Sink.
func (r *Recorder) Record(batch []loader.Result) {
	for i := range batch {
		r.add(&batch[i])
	}
}

// add books one result (see Tally for siege's rules). Times are response times from the
// intended start, which in the closed model is the send.
func (r *Recorder) add(res *loader.Result) {
	if res.Kind == loader.KindPage {
		v := r.units(res.ResponseTime())
		r.f.pages.addPage(res, v, true)
		page := r.url(res.Target).pageFor()
		page.addPage(res, v, false)
		r.hot.warm(&page.latency)
		return
	}
	r.f.pages.addRequest(res)
	if res.Kind == loader.KindResource || res.Redirected() || res.OffHost {
		r.url(res.Target).pageFor().addRequest(res) // nothing else counts in page figures
	}
	rt := res.ResponseTime()
	r.f.busy.d += rt
	if res.AfterStop {
		r.f.inFlight++
	}
	if res.Resent {
		r.f.resent++
	}
	r.recordLag(res)
	b := r.bucketFor(res.Intended + rt)
	st := r.f.steady
	if st != nil && res.Intended < r.opt.RampEnd {
		st = nil
	}
	// A URL's own figures leave its page's resources out; they are in its page figures.
	u := &r.resourceRow
	if res.Kind != loader.KindResource {
		u = r.url(res.Target)
	}
	// An answer that failed a check is a response all the same: it keeps its status.
	if res.Err.Answered() {
		r.f.status[res.Status%1000]++
		u.status.add(res.Status, 1)
	}
	if res.Err != loader.ErrNone {
		r.f.errors[res.Err]++
	}
	if res.Err == loader.ErrCheck {
		u.checkFailures++
		r.f.checkStatus[res.Status%1000]++
		u.checkStatus.add(res.Status, 1)
	}
	if r.rules != nil || res.Err == loader.ErrExtract {
		r.recordExtract(u, res)
	}
	if res.Kind == loader.KindLogin {
		u.login = true
		begins, fails := r.logins.step(res, &r.f.logins)
		r.f.logins.record(res, begins, fails)
	} else {
		r.logins.other(res, &r.f.logins)
	}
	if res.Arrived() {
		r.f.decoded += res.Decoded // a body that failed half way is no data, decoded or not
		u.size.Record(res.Decoded) // a page that failed a check (or lacked a value) did answer, and its size tells
	}
	b.tally.Record(res)
	u.tally.Record(res)
	if st != nil {
		st.tally.Record(res)
	}
	if !r.f.tally.Record(res) {
		return
	}
	for int(res.User) >= len(r.perUser) {
		r.perUser = append(r.perUser, 0)
	}
	r.perUser[res.User]++
	v := r.units(rt)
	r.f.latency.recordUnits(rt, v)
	r.f.service.recordUnits(res.Latency, r.units(res.Latency))
	u.latency.recordUnits(rt, v)
	r.hot.warm(&u.latency)
	b.latency.recordUnits(rt, v)
	r.hot.warm(&b.latency)
	if st != nil {
		st.latency.recordUnits(rt, v)
		r.hot.warm(&st.latency)
	}
}

// recordExtract books what res tells of its target's #@extract rules, in u and overall.
func (r *Recorder) recordExtract(u *urlFigures, res *loader.Result) {
	rules := 0
	if r.rules != nil {
		rules = r.rules[res.Target]
	}
	u.rules = rules
	u.extract.record(res, rules)
	r.f.extract.record(res, rules)
}

// url returns target i's figures, making them at its first result.
func (r *Recorder) url(i int32) *urlFigures {
	u := r.f.urls[i]
	if u == nil {
		u = &urlFigures{}
		r.f.urls[i] = u
	}
	return u
}

// recordLag keeps how late each of the open model's arrivals was sent, and its waits for a free
// user. Redirect hops and resources are not arrivals: the schedule planned their visit.
func (r *Recorder) recordLag(res *loader.Result) {
	if !res.Arrival {
		return
	}
	lag := res.Start - res.Intended
	r.f.schedule.lag.recordUnits(lag, r.units(lag))
	if res.Queued {
		r.f.schedule.recordWait(lag)
	}
}

// units converts to histogram units and counts what had to be clamped.
func (r *Recorder) units(d time.Duration) int64 {
	v, clamped := hdrcodec.ToUnits(d)
	if clamped {
		r.f.overflow++
	}
	return v
}

// bucketFor returns the timeline bucket of a moment of the run, growing the timeline as needed.
func (r *Recorder) bucketFor(at time.Duration) *bucket {
	i := int(max(at, 0) / r.opt.Interval)
	if n := len(r.f.timeline); i >= n && n > 0 {
		r.hot.giveBack(&r.f.timeline[n-1].latency) // the run has moved on from it
	}
	for i >= len(r.f.timeline) {
		r.f.timeline = append(r.f.timeline, bucket{start: (time.Duration(len(r.f.timeline)) * r.opt.Interval).Seconds()})
	}
	return &r.f.timeline[i]
}

// Report computes the run's figures. The recorder must have received every result (the loader's
// Run has returned); run describes the settings and is completed from the outcome. The recorder
// is left as it was, so it can report again.
func (r *Recorder) Report(o loader.Outcome, run RunInfo, label string) Report {
	f := r.f
	f.elapsed = o.Elapsed.Seconds()
	f.wireIn, f.wireOut, f.conns = o.WireBytesIn, o.WireBytesOut, o.Connections
	f.h2 = h2Frames{goAways: o.H2GoAways, resets: o.H2Resets, retries: o.H2Retries}
	f.checks = outcomeChecks(o)
	f.users = userStats(r.perUser, o.Users)
	f.label = label
	f.interval = r.opt.Interval.Seconds()
	if len(o.ErrorSamples) > 0 {
		f.errSamples = map[string]string{}
		for k, msg := range o.ErrorSamples {
			f.errSamples[k.String()] = msg
		}
	}
	for ti, msg := range o.CheckSamples {
		r.url(ti).checkFailure = msg
	}
	for ti, msg := range o.ExtractSamples {
		r.url(ti).extractFailure = msg
	}
	f.schedule = nil
	if run.Model == ModelOpen {
		s := *r.f.schedule
		s.rate, s.unsent, s.users, s.maxUsers = run.Rate, o.Unsent, o.Users, run.MaxUsers
		f.schedule = &s
	}
	if r.f.steady != nil {
		s := *r.f.steady
		s.duration = max(o.Elapsed-r.opt.RampEnd, 0).Seconds()
		f.steady = &s
	}
	withContent(f.urls, o.Content)
	run.StopReason = StopReason(o.Stop.String())
	run.StartedAt = o.Started
	run.HistogramUnit = "us"
	f.run = run
	return f.report(func(i int) (string, string) {
		t := &r.targets[i]
		return t.Method, urls.Redacted(t.URL)
	})
}

// withContent sets what each URL answered (nil: nothing) in the URL figures, in place: a copy
// of each URL's figures cost 400 bytes a URL reached. Each report sets them all anew from its
// outcome, so the recorder can report again. A URL no result reached has no content either.
func withContent(urls []*urlFigures, profiles []*content.Profile) {
	for i, u := range urls {
		switch {
		case u == nil:
		case i < len(profiles) && profiles[i] != nil:
			u.content = *profiles[i]
		default:
			u.content = content.Profile{}
		}
	}
}
