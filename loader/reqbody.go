package loader

import "github.com/valyala/fasthttp"

// Request bodies live beside the templates, not in them: Request.CopyTo copies a body set with
// SetBodyRaw into a fresh slice, so a 10 MB `<file` body would cost 10 MB per request, held
// by every user between requests (50 users, half a gigabyte). Each body is one slice, read
// by every user at once and written by no one, which is what makes sharing it safe.

// copyTemplate puts template base, sent for target ti, into req with ti's shared body. The
// GET template of resources and redirects (l.get) has no body.
func (l *Loader) copyTemplate(req, base *fasthttp.Request, ti int) {
	base.CopyTo(req)
	if base == l.get {
		return
	}
	if b := l.bodies[ti]; len(b) > 0 {
		req.SetBodyRaw(b) // points at b: no copy
	}
}
