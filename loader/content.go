package loader

import (
	"encoding/base64"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/webload/webload/content"
	"github.com/webload/webload/urls"
)

// learners fingerprint what the run's listed URLs answer (see package content): one learner per
// URL of the list, made at its first answer, since most of a long list may never be reached.
// Resources, redirects' targets off the list and login steps are not fingerprinted.
type learners struct {
	opt content.Options
	of  []atomic.Pointer[content.Learner]
	// scanners lends the users scratch space for a fingerprint: a user fingerprints one answer
	// in many, so a few scanners serve them all, where one per user would hold their buffers
	// (about twice a page) for the whole run.
	scanners sync.Pool
}

// newLearners prepares the learners of the listed targets, whose hosts (as written) are hosts.
// cfg has been validated, so its patterns compile.
func newLearners(cfg *Config, targets []urls.Target, hosts []string) *learners {
	volatile, _ := content.CompileVolatile(cfg.Volatile)
	opt := content.Options{Volatile: volatile, Keep: content.KeepFor(len(targets)), Secrets: secretValues(cfg, targets),
		Hosts: hosts}
	c := &learners{opt: opt, of: make([]atomic.Pointer[content.Learner], len(targets))}
	c.scanners.New = func() any { return new(content.Scanner) }
	return c
}

// secretValues lists the run's credentials as a page could echo them: the values of the secret
// headers (and their credentials without the scheme, "Basic ..."), and the passwords of the
// URLs and the proxy with the Basic credentials made of them.
func secretValues(cfg *Config, targets []urls.Target) []string {
	var out []string
	for _, h := range cfg.Headers {
		if SecretHeader(h.Name) {
			out = append(out, h.Value)
			if _, cred, ok := strings.Cut(h.Value, " "); ok {
				out = append(out, strings.TrimSpace(cred))
			}
		}
	}
	seen := map[string]bool{}
	add := func(raw string) {
		if !strings.Contains(raw, "@") {
			return // no credentials; most URLs of a long list, so none is parsed
		}
		u, err := url.Parse(raw)
		if err != nil || u.User == nil || seen[u.User.String()] {
			return
		}
		seen[u.User.String()] = true
		if pass, ok := u.User.Password(); ok {
			basic := base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + pass))
			out = append(out, pass, basic)
		}
	}
	add(cfg.Proxy)
	for _, list := range [][]urls.Target{targets, cfg.Login} {
		for i := range list {
			add(list[i].URL)
		}
	}
	return out
}

// learner returns URL ti's learner, making it at its first answer.
func (c *learners) learner(ti int) *content.Learner {
	p := &c.of[ti]
	if l := p.Load(); l != nil {
		return l
	}
	p.CompareAndSwap(nil, content.NewLearner(c.opt))
	return p.Load()
}

// profiles gives what each listed URL answered, in the list's order.
func (c *learners) profiles() []content.Profile {
	out := make([]content.Profile, len(c.of))
	for i := range c.of {
		if l := c.of[i].Load(); l != nil {
			out[i] = l.Profile()
		}
	}
	return out
}

// sampleContent books the answer in x to target ti with its learner and tells whether its body
// is to be kept for a fingerprint. Only listed URLs' answers are fingerprinted (the caller
// passes no resource's or login step's).
func (l *Loader) sampleContent(x *exchange, ti int) bool {
	if ti >= len(l.content.of) {
		return false
	}
	return l.content.learner(ti).Sample(x.resp.StatusCode(), x.resp.Header.ContentType())
}

// learnContent fingerprints the body kept in x for target ti, after the request's time was
// taken: the fingerprint is the client's work, not the server's. A body kept only for it is let
// go: the page parser must not take a JSON answer for a page (parse says whether the parser
// asked for it), and its buffer serves other users until this one keeps a body again.
func (l *Loader) learnContent(x *exchange, ti int, parse bool) {
	s := l.content.scanners.Get().(*content.Scanner)
	page := x.body.page
	if x.sess != nil {
		// The user's own secrets (a password, a token a rule took) are not the run's, which the
		// learners hide already: they are hidden here, on a copy, as the parser needs the page.
		page = x.sess.hide(page)
	}
	l.content.learner(ti).Observe(s, page)
	l.content.scanners.Put(s)
	if !parse || !isHTML(x.resp.Header.ContentType()) {
		x.body.release()
	}
}
