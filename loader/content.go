package loader

import (
	"encoding/base64"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/webload/webload/content"
	"github.com/webload/webload/mask"
	"github.com/webload/webload/urls"
)

// learners fingerprint what the run's listed URLs answer (see package content): one learner per
// URL of the list, made at its first answer, since most of a long list may never be reached.
// Resources, redirects' targets off the list and login steps are not fingerprinted.
type learners struct {
	group *content.Learners
	of    []atomic.Pointer[content.Learner]
	// scanners lends the users scratch space for a fingerprint: a user fingerprints one answer
	// in many, so a few scanners serve them all, where one per user would hold their buffers
	// (about twice a page) for the whole run.
	scanners sync.Pool
}

// newLearners prepares the learners of the listed targets, whose hosts (as written) are hosts,
// hiding secrets. cfg has been validated, so its patterns compile.
func newLearners(cfg *Config, targets []urls.Target, hosts []string, secrets *mask.Set) *learners {
	volatile, _ := content.CompileVolatile(cfg.Volatile)
	opt := content.Options{Volatile: volatile, Keep: content.KeepFor(len(targets)), Secrets: secrets,
		Hosts: hosts}
	c := &learners{group: content.NewLearners(opt), of: make([]atomic.Pointer[content.Learner], len(targets))}
	c.scanners.New = func() any { return new(content.Scanner) }
	return c
}

// runSecrets is the run's credentials in every form a page could print them (see package
// mask): the values of the secret headers, their credentials without the scheme ("Basic ...")
// and the password of a basic-auth pair (-u), each cookie's value of a Cookie header, the
// passwords of the URLs and the proxy with their basic-auth pairs, and Config.Secrets (the
// --db passwords). Built once per run; read-only after.
func runSecrets(cfg *Config, targets []urls.Target) *mask.Set {
	out := new(mask.Set)
	for _, h := range cfg.Headers {
		if !SecretHeader(h.Name) {
			continue
		}
		out.Add(h.Value)
		scheme, cred, ok := strings.Cut(strings.TrimSpace(h.Value), " ")
		if ok {
			cred = strings.TrimSpace(cred)
			out.Add(cred)
			if strings.EqualFold(scheme, "basic") {
				if pair, err := base64.StdEncoding.DecodeString(cred); err == nil {
					if user, pass, ok := strings.Cut(string(pair), ":"); ok {
						out.AddBasic(user, pass)
					}
				}
			}
		}
		if n := strings.ToLower(strings.TrimSpace(h.Name)); n == "cookie" {
			for _, kv := range strings.Split(h.Value, ";") {
				if _, v, ok := strings.Cut(kv, "="); ok {
					out.Add(strings.TrimSpace(v))
				}
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
			out.AddBasic(u.User.Username(), pass)
		}
	}
	add(cfg.Proxy)
	for _, list := range [][]urls.Target{targets, cfg.Login} {
		for i := range list {
			add(list[i].URL)
		}
	}
	for _, v := range cfg.Secrets {
		out.Add(v)
	}
	return out
}

// learner returns URL ti's learner, making it at its first answer.
func (c *learners) learner(ti int) *content.Learner {
	p := &c.of[ti]
	if l := p.Load(); l != nil {
		return l
	}
	p.CompareAndSwap(nil, c.group.New())
	return p.Load()
}

// profiles gives what each listed URL answered, in the list's order, nil for a URL no answer
// reached: of a long list, most. It is called once the users have stopped, and lets the
// learners go (a profile shares its learner's segments, so nothing is copied).
func (c *learners) profiles() []*content.Profile {
	out := make([]*content.Profile, len(c.of))
	for i := range c.of {
		if l := c.of[i].Swap(nil); l != nil {
			p := l.Profile()
			out[i] = &p
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
	// The user's own secrets (a password of its --data row, a token a rule took, the cookies it
	// was given) are not the run's, which the learners hide already.
	s.Hide(x.userSecrets()...)
	l.content.learner(ti).Observe(s, x.body.page)
	l.content.scanners.Put(s)
	if !parse || !isHTML(x.resp.Header.ContentType()) {
		x.body.release()
	}
}
