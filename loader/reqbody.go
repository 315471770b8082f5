package loader

import "github.com/valyala/fasthttp"

// Request bodies live beside the templates, not in them: Request.CopyTo copies a body set with
// SetBodyRaw into a fresh slice, so a 10 MB `<file` body would cost 10 MB per request, held
// by every user between requests (50 users, half a gigabyte). Each body is the target's own
// slice, read by every user at once and written by no one, which is what makes sharing it safe.

// prepare copies target ti's request into req: its template, its URL when the template is
// shared (the URL is then parsed by fasthttp at the send, as for redirects), and its body
// without a copy.
func (l *Loader) prepare(ti int, req *fasthttp.Request) {
	l.templates[ti].CopyTo(req)
	if !l.fullTemplate[ti] {
		req.SetRequestURI(l.targetURL(ti))
	}
	if b := l.targetBody(ti); len(b) > 0 {
		req.SetBodyRaw(b) // points at b: no copy
	}
}

// fill puts base into req: the run's GET for resources and redirects (l.get, with no URL or
// body), or else target ti's own request (see prepare).
func (l *Loader) fill(req, base *fasthttp.Request, ti int) {
	if base == l.get {
		base.CopyTo(req)
		return
	}
	l.prepare(ti, req)
}

// targetBody is the body of target ti, login steps included.
func (l *Loader) targetBody(ti int) []byte {
	if ti < len(l.targets) {
		return l.targets[ti].Body
	}
	return l.cfg.Login[ti-len(l.targets)].Body
}
