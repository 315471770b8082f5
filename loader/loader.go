// Package loader is webload's engine: it sends the requests of a run through one fasthttp
// client (or, with Config.HTTP2, one HTTP/2 transport) and hands each request's Result to a Sink.
package loader

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/content"
	"github.com/webload/webload/mask"
	"github.com/webload/webload/urls"
)

// Sink receives results in batches. Record is called from one goroutine at a time, so a sink
// needs no locks; it must not keep the batch slice after returning (the loader reuses it).
type Sink interface {
	Record(batch []Result)
}

// StopReason says why a run ended.
type StopReason uint8

// The ways a run ends.
const (
	Completed       StopReason = iota // every user made its requests
	TimeUp                            // the run's Duration elapsed
	Interrupted                       // the context was cancelled (Ctrl-C, SIGTERM)
	TooManyFailures                   // MaxFailures requests got no response
	Aborted                           // Abort was called: a gate judged during the run fired
)

func (r StopReason) String() string {
	switch r {
	case Completed:
		return "completed"
	case TimeUp:
		return "time"
	case TooManyFailures:
		return "failures"
	case Aborted:
		return "aborted"
	default:
		return "interrupted"
	}
}

// Outcome describes a finished run beyond its individual results.
type Outcome struct {
	// Started is the wall-clock time the first user started.
	Started time.Time
	// Elapsed runs from just before the users start to when the last one finished, including
	// delays and the requests that were in flight when the run was stopped.
	Elapsed time.Duration
	// Stop says why the run ended.
	Stop StopReason
	// Connections is the number of TCP connections opened: to the proxy when there is one,
	// one per tunnel.
	Connections int64
	// WireBytesIn and WireBytesOut count every byte read from and written to the sockets,
	// headers (and TLS records) included.
	WireBytesIn, WireBytesOut int64
	// H2GoAways and H2Resets count the GOAWAY and RST_STREAM frames HTTP/2 servers sent
	// (Config.HTTP2), and H2Retries the requests sent again after a refusal or a GOAWAY:
	// signs of a server shedding load, which the results alone do not show.
	H2GoAways, H2Resets, H2Retries int64
	// ErrorSamples holds the first error message seen for each failure kind, so a report can
	// say what "other" or "bad-response" meant.
	ErrorSamples map[ErrKind]string
	// CheckSamples holds, per target index, the message of the first check its answers failed
	// (ErrCheck), so a report can say which page failed which check; nil when none failed.
	CheckSamples map[int32]string
	// ExtractSamples holds, per target index, the message of the first extraction failure
	// (ErrExtract) of its requests: a #@extract rule that found nothing in its answer, or a
	// value the request needed and its user did not have. Messages name variables and rules,
	// never values. nil when none failed.
	ExtractSamples map[int32]string
	// Checked counts the answers whose checks were judged, and CheckTime is the time users
	// spent judging them (the monotonic clock's, on the user's goroutine): the client's cost
	// of the checks, which is in no response time, as each answer is judged after its last
	// byte. A user that judges is not sending, so a report compares it with the response time.
	Checked   int64
	CheckTime time.Duration
	// Users is how many users took part: Config.Users in the closed model, the number the
	// open model had to start to keep its schedule.
	Users int
	// Unsent counts open-model arrivals (requests, or URL visits when users load pages like a
	// browser) that were due before the run stopped but never sent, because every user was
	// busy (they are not in any other figure).
	Unsent int64
	// Content has what each URL of the list answered (see package content), in the list's
	// order; nil for a URL that got no answer (of a long list, most). Login steps have none.
	Content []*content.Profile
}

// Loader runs one load test. Build it with New; Run may be called once.
type Loader struct {
	cfg           Config
	targets       []urls.Target
	templates     []*fasthttp.Request // per target, then per login step; see prepare
	fullTemplate  []bool              // templates[i] has its URI; otherwise prepare sets it
	urlOf         []*url.URL          // each target's parsed URL, for lists up to keptURLs; see urlFor
	get           *fasthttp.Request   // a GET with the run's headers, for resources and redirects
	hosts         hostSet             // the hosts of the URL list, where redirects may lead
	resourceHosts hostSet             // more hosts that page resources may come from
	secrets       []string            // the secret headers of Config.Headers, kept off other hosts
	mix           *mix                // nil for an unweighted list
	client        doer                // the fasthttp client, or HTTP/2's
	maxResends    int                 // the most attempts after a request's first (see roundTrip)
	conns         connStats
	names         requestNames // what hops and resources requested, with Config.NameRequests
	checks        checkSets    // the response checks of each target
	parsed        *parseCache  // the resources of each page, found once; nil without Config.Parser
	decoded       *decodeCache // compressed bodies that repeat, decoded once
	content       *learners    // what the listed URLs answered
	users         *perUser     // the per-user variables; nil when the run has none
	// masked is the run's credentials (runSecrets), hidden in fingerprints and the messages
	// of the Outcome. Read-only.
	masked *mask.Set

	start   time.Time
	stopped atomic.Bool
	stopCh  chan struct{}
	stopMu  sync.Mutex
	reason  StopReason
	stopAt  time.Duration // when the run was stopped, from its start

	samplesMu sync.Mutex
	samples   map[ErrKind]string
	// checkSamples and extractSamples are Outcome.CheckSamples and ExtractSamples, kept under
	// samplesMu.
	checkSamples, extractSamples map[int32]string
	sampled                      [NumErrKinds]atomic.Bool // a sample is kept: later failures of the kind skip the lock
	socketErr                    atomic.Int64             // requests without a response, for MaxFailures
	active                       atomic.Int64             // see ActiveUsers

	batches sync.Pool
	pages   sync.Pool // page buffers, *[]byte, lent to the users' bodies (see body.take)
	// decoders lends the users' bodies their decoders for the time of a compressed body.
	decoders decoders
	// checkCost is what judging checks cost the users, added up as their exchanges end.
	checkCost runCheckCost
	// schedule gives the open model's arrivals when set (SetSchedule); nil paces by Config.Rate.
	schedule Schedule
}

// New checks the configuration and prepares one request template per target.
func New(cfg Config, targets []urls.Target) (*Loader, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, ErrNoTargets
	}
	l := &Loader{
		cfg:     cfg,
		targets: targets,
		stopCh:  make(chan struct{}),
		samples: map[ErrKind]string{},
		secrets: secretNames(&cfg),
		checks:  newCheckSets(&cfg, targets),
	}
	var err error
	if l.users, err = newPerUser(&cfg, l.Targets()); err != nil {
		return nil, err
	}
	l.hosts, l.resourceHosts = newHostSet(), newHostSet()
	l.decoded = newDecodeCache(decodeLimits{bytes: maxDecodedBytes, body: maxDecodedBody, urls: maxDecodedURLs})
	if cfg.readsPages() {
		l.parsed = newParseCache(l.findPage, parseLimits{pages: maxParsedPages, resources: maxParsedResources, kept: maxKeptBodies})
	}
	for _, h := range cfg.ResourceHosts {
		l.resourceHosts.addName(h)
	}
	// A long URL list is mostly GETs without a body, which differ only in their URL: they
	// share one template per method and content type, so a million lines do not cost a
	// million 1.3 KB requests. A target with a body keeps a template of its own.
	shared := map[string]*fasthttp.Request{}
	var sites []*url.URL // the URLs' distinct schemes and hosts, for the content fingerprints
	seenHost := map[string]bool{}
	check := fasthttp.AcquireURI()
	defer fasthttp.ReleaseURI(check)
	for i, t := range l.Targets() {
		u, err := url.Parse(t.URL)
		if err != nil {
			return nil, fmt.Errorf("%s: bad URL %q: %w", t.Source, urls.Redacted(t.URL), err)
		}
		var tmpl *fasthttp.Request
		full := len(t.Body) > 0
		if full {
			tmpl, err = newTemplate(&cfg, &t)
		} else {
			tmpl, err = sharedTemplate(&cfg, &t, shared, check)
		}
		if err != nil {
			return nil, err
		}
		l.templates = append(l.templates, tmpl)
		l.fullTemplate = append(l.fullTemplate, full)
		if len(targets)+len(cfg.Login) <= keptURLs {
			l.urlOf = append(l.urlOf, u)
		}
		if i < len(targets) {
			l.hosts.addURL(u)
			if site := u.Scheme + "://" + u.Host; u.Host != "" && !seenHost[site] {
				seenHost[site] = true
				sites = append(sites, u)
			}
		}
	}
	l.masked = runSecrets(&cfg, targets)
	l.content = newLearners(&cfg, targets, contentHosts(&cfg, sites), l.masked)
	l.get = newGetTemplate(&cfg)
	if cfg.HTTP2 {
		l.client, err = newH2Client(&l.cfg, &l.conns)
	} else {
		l.client, err = newClient(&l.cfg, &l.conns)
	}
	if err != nil {
		return nil, err
	}
	// One more than the connections the pool can hold: all of them may have gone stale.
	l.maxResends = cfg.concurrency()*cfg.connsPerUser() + 1
	walkLength := cfg.Reps * cfg.Users
	if cfg.open() {
		walkLength = cfg.Reps
	}
	l.mix = newMix(targets, walkLength)
	size := cfg.batchSize()
	l.batches.New = func() any { b := make([]Result, 0, size); return &b }
	return l, nil
}

// Targets lists what results are booked under: Result.Target indexes it. It is the URL list
// followed by the login steps.
func (l *Loader) Targets() []urls.Target {
	if len(l.cfg.Login) == 0 {
		return l.targets
	}
	return append(slices.Clip(l.targets), l.cfg.Login...)
}

// newGetTemplate builds the GET that resources and redirects start from: the run's headers
// without a URL or body.
func newGetTemplate(cfg *Config) *fasthttp.Request {
	req := &fasthttp.Request{}
	req.URI().DisablePathNormalizing = true
	req.Header.SetMethod(fasthttp.MethodGet)
	setRunHeaders(cfg, req)
	return req
}

// newTemplate builds the request for a target once; users copy it before each send, so the
// URL is parsed and the headers are laid out only here. The body stays out of it (see
// copyTemplate).
func newTemplate(cfg *Config, t *urls.Target) (*fasthttp.Request, error) {
	req := &fasthttp.Request{}
	uri := fasthttp.AcquireURI()
	defer fasthttp.ReleaseURI(uri)
	uri.DisablePathNormalizing = true
	if err := uri.Parse(nil, []byte(t.URL)); err != nil {
		return nil, fmt.Errorf("%s: bad URL %q: %w", t.Source, urls.Redacted(t.URL), err)
	}
	req.SetURI(uri)
	req.Header.SetMethod(t.Method)
	if len(t.Body) > 0 || t.Method == fasthttp.MethodPost || t.Method == fasthttp.MethodPut ||
		t.Method == fasthttp.MethodPatch {
		ct := t.ContentType
		if ct == "" {
			ct = cfg.ContentType
		}
		if ct != "" {
			req.Header.SetContentType(ct)
		}
	}
	setRunHeaders(cfg, req)
	return req, nil
}

// sharedTemplate returns the URI-less template that t shares with the other targets of its
// method and content type, after checking that fasthttp can parse its URL (check is scratch).
func sharedTemplate(cfg *Config, t *urls.Target, shared map[string]*fasthttp.Request, check *fasthttp.URI) (*fasthttp.Request, error) {
	check.DisablePathNormalizing = true
	if err := check.Parse(nil, []byte(t.URL)); err != nil {
		return nil, fmt.Errorf("%s: bad URL %q: %w", t.Source, urls.Redacted(t.URL), err)
	}
	key := t.Method + " " + t.ContentType
	if tmpl, ok := shared[key]; ok {
		return tmpl, nil
	}
	// Built like a full template, then without its URI, so both kinds carry the same headers.
	tmpl, err := newTemplate(cfg, t)
	if err != nil {
		return nil, err
	}
	tmpl.SetRequestURI("")
	shared[key] = tmpl
	return tmpl, nil
}

// keptURLs is the longest URL list whose parsed URLs the loader keeps. A url.URL costs about
// 150 bytes, the largest share of a million-line list; beyond this length each visit parses its
// URL again, an allocation that takes far less than a request.
const keptURLs = 10_000

// urlFor is target ti's parsed URL, for its visit's cookies, redirects and resources. New has
// checked that it parses. Callers must not modify it: users share it.
func (l *Loader) urlFor(ti int) *url.URL {
	if l.urlOf != nil {
		return l.urlOf[ti]
	}
	u, _ := url.Parse(l.targetURL(ti))
	return u
}

// targetURL is the URL of target ti, login steps included, without building Targets.
func (l *Loader) targetURL(ti int) string {
	if ti < len(l.targets) {
		return l.targets[ti].URL
	}
	return l.cfg.Login[ti-len(l.targets)].URL
}

// setRunHeaders puts the headers every request of the run carries on req.
func setRunHeaders(cfg *Config, req *fasthttp.Request) {
	if cfg.AcceptEncoding != "" {
		req.Header.Set(fasthttp.HeaderAcceptEncoding, cfg.AcceptEncoding)
	}
	for _, h := range cfg.Headers {
		if strings.EqualFold(h.Name, "Host") {
			req.UseHostHeader = true
		}
		req.Header.Set(h.Name, h.Value)
	}
	if cfg.ConnectionClose {
		req.SetConnectionClose()
	}
}

// Run sends the load and returns when every user has finished: all its requests made, the
// Duration over, or ctx cancelled. Requests in flight at a stop are allowed to finish (each is
// bounded by the timeout) and are counted. Results reach sink before Run returns.
func (l *Loader) Run(ctx context.Context, sink Sink) Outcome {
	results := make(chan *[]Result, 2*min(l.cfg.concurrency(), 1024))
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for b := range results {
			sink.Record(*b)
			*b = (*b)[:0]
			l.batches.Put(b)
		}
	}()

	// The start is set before anything can stop the run: stop reads it.
	l.start = time.Now()
	if ctx.Err() != nil {
		// Cancelled already: the run is interrupted before it starts, not by whichever of the
		// watcher below and a short run's end comes first.
		l.stop(Interrupted)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			l.stop(Interrupted)
		case <-done:
		}
	}()

	if l.cfg.Duration > 0 {
		timer := time.AfterFunc(l.cfg.Duration, func() { l.stop(TimeUp) })
		defer timer.Stop()
	}
	lo, hi := l.cfg.shardUsers()
	users, unsent := hi-lo, int64(0)
	switch {
	case l.schedule != nil:
		users, unsent = l.runSchedule(results)
	case l.cfg.open():
		users, unsent = l.runOpen(results)
	default:
		l.runClosed(results)
	}
	elapsed := time.Since(l.start)
	l.stop(Completed) // first reason wins: this only sticks when nothing stopped the run earlier
	close(results)
	<-collected
	l.client.CloseIdleConnections()

	l.stopMu.Lock()
	reason := l.reason
	l.stopMu.Unlock()
	l.samplesMu.Lock()
	defer l.samplesMu.Unlock()
	cost := l.checkCost.total()
	return Outcome{
		Started:        l.start,
		Elapsed:        elapsed,
		Stop:           reason,
		Connections:    l.conns.opened.Load(),
		WireBytesIn:    l.conns.bytesIn.Load(),
		WireBytesOut:   l.conns.bytesOut.Load(),
		H2GoAways:      l.conns.h2GoAways.Load(),
		H2Resets:       l.conns.h2Resets.Load(),
		H2Retries:      l.conns.h2Retries.Load(),
		ErrorSamples:   maskSamples(l.masked, l.samples),
		CheckSamples:   maskSamples(l.masked, l.checkSamples),
		ExtractSamples: maskSamples(l.masked, l.extractSamples),
		Checked:        cost.answers,
		CheckTime:      cost.spent,
		Users:          users,
		Unsent:         unsent,
		Content:        l.content.profiles(),
	}
}

// runClosed starts the closed model's users and waits for all of them.
func (l *Loader) runClosed(results chan<- *[]Result) {
	if l.runLoops(results) {
		return
	}
	var users sync.WaitGroup
	lo, hi := l.cfg.shardUsers()
	for id := lo; id < hi; id++ {
		rng := rand.New(rand.NewPCG(l.cfg.Seed, uint64(id)))
		p := planFor(&l.cfg, id, len(l.targets), rng, l.mix, l.users != nil && l.users.flow)
		// Made here, after the plan, so that a random pick of the user's row does not change
		// the plan the seed gives; numbered by the whole run's ids, so shards take other rows.
		s := l.newSession(id, rng)
		users.Go(func() { l.user(id, p, rng, s, results) })
	}
	users.Wait()
}

// stop ends the run for the first reason given; later calls change nothing.
func (l *Loader) stop(reason StopReason) {
	l.stopMu.Lock()
	defer l.stopMu.Unlock()
	if l.stopped.Load() {
		return
	}
	l.reason = reason
	l.stopAt = time.Since(l.start)
	l.stopped.Store(true)
	close(l.stopCh)
}

// Abort stops the run as its Duration would, with the reason Aborted: the requests in flight
// finish and are counted. It is for whoever judges the results as they come (a sink); safe
// from any goroutine once Run has started, and only the first stop counts.
func (l *Loader) Abort() { l.stop(Aborted) }

// ActiveUsers is how many users are busy now: in the closed model those that have started (past
// their place in the ramp) and not finished, in the open model those serving an arrival. Safe
// from any goroutine.
func (l *Loader) ActiveUsers() int64 { return l.active.Load() }

// stopOffset is when the run was stopped, from its start.
func (l *Loader) stopOffset() time.Duration {
	l.stopMu.Lock()
	defer l.stopMu.Unlock()
	return l.stopAt
}

// failed books a request that got no response: it stops the run at MaxFailures, and keeps the
// first message seen for each kind (see sampleMessage).
func (l *Loader) failed(kind ErrKind, err error) {
	if n := l.socketErr.Add(1); l.cfg.MaxFailures > 0 && n >= l.cfg.MaxFailures {
		l.stop(TooManyFailures)
	}
	if l.sampled[kind].Load() {
		return // a refused or timed-out storm must not queue every user on one lock
	}
	l.samplesMu.Lock()
	defer l.samplesMu.Unlock()
	if _, ok := l.samples[kind]; !ok {
		l.samples[kind] = l.sampleMessage(kind, err)
		l.sampled[kind].Store(true)
	}
}
