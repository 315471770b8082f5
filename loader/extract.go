package loader

import (
	"time"

	"github.com/webload/webload/extract"
)

// extracting tells whether the answer to a request of kind for target ti is one its #@extract
// rules read the body of, so that the body is kept (up to maxParsed, which is extract.MaxBody)
// while it is read. Resources are never read by rules: the rules are the listed URL's.
func (l *Loader) extracting(ti int, kind Kind) bool {
	if l.users == nil || kind == KindResource {
		return false
	}
	t := l.users.targets[int32(ti)]
	return t != nil && t.needsBody
}

// extractAnswer applies target ti's rules to the answer in x, described in res, and sets the
// user's values. The rules read what the checks would: the answer at the end of the redirects
// the run follows (a redirect on its way is not read) and, past a meta refresh, the page it
// leads to. A rule that misses unsets its value, so that later requests needing it are not
// sent, and fails the request as ErrExtract, keeping its status; a request that got no answer
// unsets them all. learn tells whether the body was kept for the content fingerprint too; a
// body kept for the rules alone is let go, so the page parser does not take a JSON answer for
// a page.
func (l *Loader) extractAnswer(x *exchange, ti int, res *Result, learn bool) {
	t := l.users.targets[int32(ti)]
	if t == nil || len(t.rules) == 0 {
		return
	}
	s := x.sess
	if !res.Err.Answered() {
		for _, r := range t.rules {
			s.unset(r.slot)
		}
		return
	}
	if l.passesOn(x, res) {
		return
	}
	res.Extracted = true
	answer := extract.Response{Body: x.body.page, Header: &x.resp.Header}
	var miss error
	for _, r := range t.rules {
		v, err := r.rule.Extract(answer)
		if err != nil {
			s.unset(r.slot)
			if miss == nil {
				miss = err
			}
			continue
		}
		s.set(r.slot, v)
	}
	// A page left by its meta refresh does not fail: the rules read the page it leads to.
	if miss != nil && res.Err == ErrNone && !l.leftByRefresh(x, res) {
		res.Err = ErrExtract
		l.extractFailed(int32(ti), miss.Error())
	}
	if !learn && !(l.parsed != nil && isHTML(x.resp.Header.ContentType())) {
		x.body.release()
	}
}

// passesOn tells whether the answer in x, described in res, is a redirect the run follows:
// not what the URL answered in the end, so neither its checks nor its rules read it. A
// redirect a visit does not follow (to a host it may not go to, or to a Location it cannot
// go to) ends the visit, so it is what the URL answered, and both read it. Past the hop limit
// a redirect is still passed on: its result fails as ErrTooManyHops, whatever it says.
func (l *Loader) passesOn(x *exchange, res *Result) bool {
	if !l.cfg.FollowRedirects || !res.Redirected() {
		return false
	}
	next := location(&x.resp, x.at)
	return next != nil && (l.cfg.FollowAnyHost || l.hosts.has(next))
}

// personalizeSend fills the request prepared in x for target ti with the user's values, or
// when it cannot, writes in *res the result of a request not sent and returns false. The
// result is written in place so that it takes no room in send's frame.
func (l *Loader) personalizeSend(x *exchange, ti, user int, res *Result) bool {
	err := l.personalize(x, l.templates[ti], ti)
	if err == nil {
		return true
	}
	*res = l.unfilled(ti, user, KindURL, err)
	return false
}

// unfilled is the result of a request of kind for target ti that was not sent because the
// user's values could not fill it (err, which names the variable, not its value): a failure of
// kind ErrExtract with no status and no time, booked under the target.
func (l *Loader) unfilled(ti, user int, kind Kind, err error) Result {
	now := time.Since(l.start)
	l.extractFailed(int32(ti), err.Error())
	return Result{Start: now, Intended: now, Target: int32(ti), User: int32(user), Kind: kind, Err: ErrExtract,
		AfterStop: l.stopped.Load()}
}

// extractFailed keeps the first extraction failure's message of each target, and of the run.
// Like a failed check it is no missing response, so it does not count towards MaxFailures.
func (l *Loader) extractFailed(ti int32, msg string) {
	l.samplesMu.Lock()
	defer l.samplesMu.Unlock()
	l.keepSample(&l.extractSamples, ErrExtract, ti, msg)
}
