package loader

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/extract"
	"github.com/webload/webload/urls"
)

// ErrUnknownVariable reports a per-user reference $(NAME) in a target that no column of
// Config.Data and no #@extract rule of the run defines: every request of it would fail.
var ErrUnknownVariable = errors.New("per-user variable defined nowhere")

// The engine hands fasthttp's response header to the rules as it is, without a copy.
var _ extract.Header = (*fasthttp.ResponseHeader)(nil)

// perUser is what a run's per-user variables need, made once by New and then only read: the
// variables' places in a session, the targets that refer to them or set them, and the headers
// that refer to them. A run without any has none (Loader.users is nil), and its requests
// cost what they always did.
type perUser struct {
	slots   map[string]int // variable name -> its index in a session's values
	columns int            // the first slots are Config.Data's columns, in its order
	// targets holds, by target index (login steps after the list), only the targets that fill
	// or extract something: a million-line list mostly has nothing to hold.
	targets map[int32]*userTarget
	headers []headerVar // the run's headers whose values refer to per-user variables
	flow    bool        // a URL of the list (not a login step) takes values from its answer
}

// userTarget is what one target does with a user's values.
type userTarget struct {
	url, body *urls.Template // nil when the URL (or the body) has no per-user reference
	place     urls.Place     // where body values go: a form's are form-encoded
	rules     []slotRule     // the target's #@extract rules, applied to its answer
	needsBody bool           // some rule reads the body, so the answer's body is kept for it
}

// slotRule is an extract rule and the slot its value goes to.
type slotRule struct {
	rule extract.Rule
	slot int
}

// headerVar is one of Config.Headers whose value is filled per user.
type headerVar struct {
	name  string
	value *urls.Template
}

// newPerUser gathers the per-user variables of cfg and targets (the list, then the login
// steps), or returns nil when nothing in the run is per-user.
func newPerUser(cfg *Config, targets []urls.Target) (*perUser, error) {
	p := &perUser{slots: map[string]int{}, targets: map[int32]*userTarget{}}
	slot := func(name string) int {
		i, ok := p.slots[name]
		if !ok {
			i = len(p.slots)
			p.slots[name] = i
		}
		return i
	}
	if cfg.Data != nil {
		for _, name := range cfg.Data.Names() {
			slot(name)
		}
		p.columns = len(p.slots)
	}
	for i := range targets {
		for _, r := range targets[i].Extracts {
			slot(r.Name())
		}
	}
	isPerUser := func(name string) bool { _, ok := p.slots[name]; return ok }
	for _, h := range cfg.Headers {
		if t := urls.CompileTemplate(h.Value, isPerUser); t != nil {
			p.headers = append(p.headers, headerVar{name: h.Name, value: t})
		}
	}
	for i := range targets {
		t := &targets[i]
		if t.URLVars == nil && t.BodyVars == nil && len(t.Extracts) == 0 {
			continue
		}
		for _, tmpl := range []*urls.Template{t.URLVars, t.BodyVars} {
			for _, name := range templateNames(tmpl) {
				if !isPerUser(name) {
					return nil, fmt.Errorf("%s: $(%s): %w: it is no column of the data and no #@extract sets it", t.Source, name, ErrUnknownVariable)
				}
			}
		}
		ut := &userTarget{url: t.URLVars, body: t.BodyVars, place: urls.BodyPlace(sentType(cfg, t))}
		for _, r := range t.Extracts {
			ut.rules = append(ut.rules, slotRule{rule: r, slot: p.slots[r.Name()]})
			ut.needsBody = ut.needsBody || r.NeedsBody()
		}
		p.targets[int32(i)] = ut
		p.flow = p.flow || len(t.Extracts) > 0 && i < len(targets)-len(cfg.Login)
	}
	if cfg.Data == nil && len(p.targets) == 0 && len(p.headers) == 0 {
		return nil, nil
	}
	return p, nil
}

// templateNames is t's variables; none for a nil t.
func templateNames(t *urls.Template) []string {
	if t == nil {
		return nil
	}
	return t.Names()
}

// sentType is the Content-Type t's body is sent with: its own, else the run's.
func sentType(cfg *Config, t *urls.Target) string {
	if t.ContentType != "" {
		return t.ContentType
	}
	return cfg.ContentType
}

// session is one user's values: its row of Config.Data, and what its targets' #@extract
// rules took from its answers so far. Only its user's goroutine writes it, between requests;
// the user's resource fetchers read it while the user waits for them.
type session struct {
	p    *perUser
	row  []string // the user's row of the data, kept for a relogin
	vals []string // by slot
	has  []bool   // by slot: vals holds a value
}

// newSession gives user (numbered over the whole run, so that shards take different rows) its
// session, or nil when the run has no per-user variables. rng is the user's own.
func (l *Loader) newSession(user int, rng *rand.Rand) *session {
	if l.users == nil {
		return nil
	}
	s := &session{p: l.users, vals: make([]string, len(l.users.slots)), has: make([]bool, len(l.users.slots))}
	if l.cfg.Data != nil {
		s.row = l.cfg.Data.Row(user, rng)
	}
	s.reset()
	return s
}

// Value returns the user's value of name; it makes a session the urls.Values its templates
// are filled from.
func (s *session) Value(name string) (string, bool) {
	i, ok := s.p.slots[name]
	if !ok || !s.has[i] {
		return "", false
	}
	return s.vals[i], true
}

func (s *session) set(slot int, v string) { s.vals[slot], s.has[slot] = v, true }

func (s *session) unset(slot int) { s.vals[slot], s.has[slot] = "", false }

// reset forgets what was extracted, as a new login must: the data row's values come back
// (also for a column an #@extract rule overwrote), every other variable is unset.
func (s *session) reset() {
	for i := range s.vals {
		if i < s.p.columns && i < len(s.row) {
			s.set(i, s.row[i])
		} else {
			s.unset(i)
		}
	}
}

// reloginDue tells whether a user that made visits URL visits logs in again before the next.
func (l *Loader) reloginDue(visits int) bool {
	return l.cfg.ReloginEvery > 0 && visits > 0 && visits%l.cfg.ReloginEvery == 0
}

// personalize fills the request in x, just prepared from base for target ti, with the user's
// values: the target's URL and body when base is the target's own request (not the run's GET
// for resources and redirects), and the per-user headers in every case. A value that is
// missing, or cannot go where it is put, is an error naming the variable, never the value,
// and nothing is to be sent; only a login step goes without a header whose value is missing.
func (l *Loader) personalize(x *exchange, base *fasthttp.Request, ti int) error {
	p, s := l.users, x.sess
	if t := p.targets[int32(ti)]; t != nil && base != l.get {
		if t.url != nil {
			buf, err := t.url.Append(x.fill[:0], s, urls.InURL)
			x.fill = buf
			if err != nil {
				return err
			}
			x.req.SetRequestURIBytes(buf) // copied
		}
		if t.body != nil {
			// The user's own buffer, reused request after request: only this exchange sends it.
			buf, err := t.body.Append(x.filledBody[:0], s, t.place)
			x.filledBody = buf
			if err != nil {
				return err
			}
			x.req.SetBodyRaw(buf)
		}
	}
	login := ti >= len(l.targets)
	for _, h := range p.headers {
		buf, err := h.value.Append(x.fill[:0], s, urls.InHeader)
		x.fill = buf
		if login && errors.Is(err, urls.ErrUnset) {
			// The login steps are what takes the values (a bearer token) in the first place:
			// they go without the header until it can be filled. Other requests need it.
			x.req.Header.Del(h.name)
			continue
		}
		if err != nil {
			return err
		}
		x.req.Header.SetBytesV(h.name, buf) // copied
	}
	return nil
}

// filledURL tells whether target ti's URL is filled per user, so that its visit's cookies,
// redirects and resources must use the URL as sent, not as written.
func (l *Loader) filledURL(ti int) bool {
	t := l.users.targets[int32(ti)]
	return t != nil && t.url != nil
}

// secrets lists the user's values (its --data row's, those its rules took) to hide wherever
// a page shows them, appended to dst.
func (s *session) secrets(dst []string) []string {
	for i, v := range s.vals {
		if s.has[i] {
			dst = append(dst, v)
		}
	}
	return dst
}

// sentURL is the URL of the request in x as filled in, for a target whose URL is filled per
// user; nil when it does not parse, and the caller keeps the URL as written.
func sentURL(x *exchange) *url.URL {
	u, err := url.Parse(string(x.req.Header.RequestURI()))
	if err != nil {
		return nil
	}
	return u
}
