// Package stats turns a run's results into figures. Its model is built of values that record,
// add and answer for themselves: Latency (a count, a sum, the exact extremes and an HdrHistogram)
// and Tally (requests by outcome under siege's rules), which make up a run's overall, per-URL,
// page, timeline, steady-state, schedule, login and extraction figures. The Recorder fills them
// from results; Combine (a --repeat series) and Merge (the shards of one run) read saved results
// back into them and add them up. Report is their JSON view, made by one function and read back
// by one. The figures a user can name are listed once (Figures), with the optional sections of a
// result that the features' packages own (see sections). The package also writes the JSON; the
// text report, the log line and the --hdr-log file are package report's, judging results
// package judge's (gates package gate's), and the outputs written while a run goes package
// live's. It has no goroutines and no network;
// a Recorder is fed from one goroutine.
package stats

import (
	"time"

	"github.com/webload/webload/content"
	"github.com/webload/webload/loader"
)

// model is a run's result in memory: what the Recorder fills as results arrive, what Combine
// and Merge add up from saved results, and what the Report, the JSON view, is made from (see
// view.go and load.go). Each part is a value that records and adds itself.
type model struct {
	tally   Tally
	latency Latency // response times of transactions, from the intended start
	service Latency // service times of transactions, from the actual send
	status  allStatuses
	// checkStatus counts the answers that failed a check by status: they are in status too.
	checkStatus allStatuses
	errors      errorCounts
	// busy sums every request's response time: the mean requests in flight is busy/elapsed.
	busy       total
	elapsed    float64 // seconds
	inFlight   int64   // requests running at the stop, finished and counted
	resent     int64
	overflow   int64 // latencies beyond the histogram's range, recorded at its top
	decoded    int64 // response bodies after undoing their Content-Encoding
	wireIn     int64
	wireOut    int64
	conns      int64
	h2         h2Frames
	users      UserStats
	errSamples map[string]string
	extract    extractCounts
	checks     checkCost
	logins     loginFigures

	// urls are the recorder's, each nil until the URL's first result: most of a long list may
	// never be reached. Combine and Merge add saved URL rows one at a time instead (urlRows).
	urls     []*urlFigures
	pages    pageFigures // page visits, when users load pages like a browser
	timeline []bucket
	interval float64 // seconds
	steady   *steadyFigures
	schedule *scheduleFigures

	label   string
	run     RunInfo
	repeats []Report
}

// urlFigures are one URL's share. A URL's own figures leave its page's resources out; they are
// in its page figures.
type urlFigures struct {
	tally   Tally
	latency Latency
	status  statuses
	// checkStatus counts the answers that failed a check by status: they are in status too.
	checkStatus statuses
	size        SizeStats // decoded body sizes of its responses
	// page has the URL's page visits and their resources; nil until it has one, which keeps
	// the record of a URL only ever requested alone small.
	page *pageFigures
	// checkFailure is the message of the first check the URL's answers failed, "" for none.
	checkFailure  string
	checkFailures int64 // answers that failed a check
	// extract counts what the URL's #@extract rules took; extractFailure is the message of the
	// first value it missed, "" for none.
	extract        extractCounts
	extractFailure string
	rules          int  // the line's #@extract rules
	login          bool // the URL is a login step
	// content is what the URL answered; the loader learns it and hands it over at the end.
	content content.Profile
}

// reset empties u, keeping its histograms' and statuses' storage for the next URL.
func (u *urlFigures) reset() {
	u.tally = Tally{}
	u.latency.reset()
	u.status, u.checkStatus = u.status[:0], u.checkStatus[:0]
	u.checkFailure, u.checkFailures = "", 0
	u.extract, u.extractFailure, u.rules, u.login = extractCounts{}, "", 0, false
	u.content = content.Profile{}
	u.size = SizeStats{}
	if u.page != nil {
		l := u.page.latency
		l.reset()
		*u.page = pageFigures{latency: l}
	}
}

// pageFor returns the URL's page figures, making them at their first use.
func (u *urlFigures) pageFor() *pageFigures {
	if u.page == nil {
		u.page = &pageFigures{}
	}
	return u.page
}

// pageFigures are page visits, overall or of one URL: the visit (the URL, its redirects and its
// resources) is the unit, and its load time the latency.
type pageFigures struct {
	pages, failed, cut   int64
	resources, resFailed int64
	resBytes             int64
	redirects, offHost   int64
	latency              Latency // load times of the visits that did not fail
}

// addPage books a KindPage result: a visit, not a transaction. v is its response time in
// histogram units; dense makes the histogram a dense one, for the overall figures.
func (p *pageFigures) addPage(res *loader.Result, v int64, dense bool) {
	if res.AfterStop {
		p.cut++
		return
	}
	p.pages++
	if res.Failed() {
		p.failed++
		return
	}
	if dense && p.latency.h == nil {
		p.latency = denseLatency()
	}
	p.latency.recordUnits(res.Latency, v)
}

// addRequest books what a page's requests tell: resources and redirects.
func (p *pageFigures) addRequest(res *loader.Result) {
	if res.Kind == loader.KindResource {
		p.resources++
		if res.Err == loader.ErrNone {
			p.resBytes += res.BodyBytes
		}
		if res.Failed() {
			p.resFailed++
		}
	}
	if res.Redirected() {
		p.redirects++
	}
	if res.OffHost {
		p.offHost++
	}
}

func (p *pageFigures) visited() bool { return p != nil && (p.pages > 0 || p.cut > 0) }

// addCounts adds o's counts; the caller adds the load times.
func (p *pageFigures) addCounts(o *pageFigures) {
	p.pages += o.pages
	p.failed += o.failed
	p.cut += o.cut
	p.resources += o.resources
	p.resFailed += o.resFailed
	p.resBytes += o.resBytes
	p.redirects += o.redirects
	p.offHost += o.offHost
}

// bucket holds the results of one timeline interval, by the time they ended. Its histogram is
// sparse, so an hour of one-second buckets stays small.
type bucket struct {
	start   float64 // seconds from the start of the run
	tally   Tally
	latency Latency
	// saved is the encoding of the one saved interval placed here, while it is all the bucket
	// holds: the library writes the same bytes for the same counts, so a series, which only
	// places its runs' intervals in time, need not encode them again.
	saved string
}

// steadyFigures are the results intended after the ramp.
type steadyFigures struct {
	from, duration float64 // seconds
	tally          Tally
	latency        Latency
}

// scheduleFigures are the open model's account of its timing.
type scheduleFigures struct {
	rate     float64
	unsent   int64
	users    int
	maxUsers int
	// lag is how late each request was sent (actual minus intended send time); its count is
	// the requests sent.
	lag Latency
	// wait is the lag of the requests that waited for a free user; no histogram.
	wait Latency
}

// recordWait counts a request's wait for a free user: its lag, without a histogram.
func (s *scheduleFigures) recordWait(lag time.Duration) { s.wait.time(lag) }

// h2Frames counts what HTTP/2 servers said of their load in frames (loader.Outcome).
type h2Frames struct {
	goAways, resets, retries int64
}
