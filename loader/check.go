package loader

import (
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/check"
	"github.com/webload/webload/urls"
)

// checkSets are the run's response checks, made once by New and read by every user.
type checkSets struct {
	all *check.Set           // Config.Checks, for the targets without checks of their own; nil for none
	own map[int32]*check.Set // Config.Checks and the target's own, for targets that have some; a login step's own alone
}

func newCheckSets(cfg *Config, targets []urls.Target) checkSets {
	c := checkSets{all: check.NewSet(cfg.Checks...)}
	for i := range targets {
		if len(targets[i].Checks) == 0 {
			continue
		}
		if c.own == nil {
			c.own = map[int32]*check.Set{}
		}
		// The target's own first: a failure names the check written for this page.
		c.own[int32(i)] = check.NewSet(append(append([]check.Expr(nil), targets[i].Checks...), cfg.Checks...)...)
	}
	// A login step is checked by its own checks only (a login file's #@check lines): a site
	// that refuses a login with 200 and the form again is caught there, while the run's checks
	// are written for the pages of the list.
	for i := range cfg.Login {
		if len(cfg.Login[i].Checks) == 0 {
			continue
		}
		if c.own == nil {
			c.own = map[int32]*check.Set{}
		}
		c.own[int32(len(targets)+i)] = check.NewSet(cfg.Login[i].Checks...)
	}
	return c
}

// of returns target ti's checks; nil for none.
func (c *checkSets) of(ti int) *check.Set {
	if s, ok := c.own[int32(ti)]; ok {
		return s
	}
	return c.all
}

// startCheck begins checking the response in x, whose head was read, and tells whether it is
// checked. The checks apply to what a URL of the list answered: its own response, or with
// redirects followed the answer at the end of them (past meta refreshes too: see endCheck and
// leftByRefresh). A redirect that is followed and a page's resources are not checked: the user
// listed pages, not the images on them; a login step only by its own checks. x.body.hold is
// set when the checks look at the body, so that it is held as it is read.
func (l *Loader) startCheck(x *exchange, ti int, kind Kind, res *Result) bool {
	x.body.hold = 0
	var set *check.Set
	switch {
	case kind == KindURL && ti < len(l.targets):
		set = l.checks.of(ti)
	case kind == KindLogin:
		set = l.checks.own[int32(ti)]
	}
	if set == nil || l.passesOn(x, res) {
		return false
	}
	if x.eval == nil {
		x.eval = new(check.Eval)
	}
	if x.eval.Start(set, int(res.Status)) {
		x.body.hold = l.cfg.checkBody()
	}
	return true
}

// received returns the value of the response header name in x as it came, as the checks
// want it: nil when the response has none, empty but not nil when it came empty. fasthttp's
// Peek tells neither apart, and makes up a Content-Type (text/plain) for an answer without
// one. A Content-Type, Content-Encoding, Content-Length or Server that came empty reads as
// absent: fasthttp keeps no more of them.
func (x *exchange) received(name string) []byte {
	h := &x.resp.Header
	if strings.EqualFold(name, fasthttp.HeaderContentType) {
		h.SetNoDefaultContentType(true)
		v := h.ContentType()
		h.SetNoDefaultContentType(false) // as the response was read: the rest of the run reads the default
		if len(v) == 0 {
			return nil
		}
		return v
	}
	if v := h.Peek(name); len(v) > 0 {
		return v
	}
	if len(h.PeekAll(name)) > 0 {
		return []byte{}
	}
	return nil
}

// endCheck judges a checked response, described in res, whose body was read whole, once its
// time was taken: a check's cost is the client's, so it neither counts in the response time nor
// runs into the request's timeout. It is counted in x.cost instead. One that failed a check is
// a failure of kind ErrCheck, which keeps its status and counts its body as received.
func (l *Loader) endCheck(x *exchange, ti int, res *Result) {
	if x.peek == nil {
		x.peek = x.received // made once: a method value per request would allocate
	}
	start := time.Now()
	pass := x.eval.Finish(x.peek, res.Decoded, x.body.held)
	x.cost.add(time.Since(start))
	x.body.checked()
	if pass || l.leftByRefresh(x, res) {
		return
	}
	res.Err = ErrCheck
	l.checkFailed(int32(ti), x.eval)
}

// checkCost is what judging the answers' checks cost the users, after each answer's time was
// taken. Each exchange counts its own and adds it to the run's when it is released, so the
// users share no counter per answer.
type checkCost struct {
	answers int64
	spent   time.Duration
}

func (c *checkCost) add(d time.Duration) {
	c.answers++
	c.spent += d
}

// runCheckCost is the run's checkCost, which exchanges add to as they are released.
type runCheckCost struct {
	mu sync.Mutex
	checkCost
}

func (r *runCheckCost) merge(c checkCost) {
	if c.answers == 0 {
		return
	}
	r.mu.Lock()
	r.answers += c.answers
	r.spent += c.spent
	r.mu.Unlock()
}

func (r *runCheckCost) total() checkCost {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.checkCost
}

// checkFailed keeps the first failed check's message of each target, and of the run. A failed
// check is no missing response, so it does not count towards MaxFailures.
func (l *Loader) checkFailed(ti int32, e *check.Eval) {
	l.samplesMu.Lock()
	defer l.samplesMu.Unlock()
	if _, ok := l.checkSamples[ti]; ok {
		return
	}
	l.keepSample(&l.checkSamples, ErrCheck, ti, e.Message())
}

// keepSample keeps msg as target ti's first message in *samples (made at the first) and as
// the run's first of kind. The caller holds samplesMu.
func (l *Loader) keepSample(samples *map[int32]string, kind ErrKind, ti int32, msg string) {
	if _, ok := (*samples)[ti]; ok {
		return
	}
	if *samples == nil {
		*samples = map[int32]string{}
	}
	(*samples)[ti] = msg
	if _, ok := l.samples[kind]; !ok {
		l.samples[kind] = msg
		l.sampled[kind].Store(true)
	}
}
