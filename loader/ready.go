package loader

// A user who sends the same URL again and again (the bare path: one URL, no cookies, no
// per-user values) would copy the URL's prepared request into its own and parse its URL once
// a request, the largest part of the client's own work a request after the system calls.
// Instead the exchange remembers that its request still holds target ti's as prepare made it,
// and the next request to ti sends it as it is. fasthttp changes a request it sends only in
// ways it changes a fresh copy the same way (the Host header and request line from the parsed
// URL, its User-Agent when the request has none), so a request sent as it is and a fresh copy
// go out byte for byte the same.

// prepared tells whether x.req holds target ti's request as prepare made it, so that a request
// to ti need not be prepared again. Requests filled with a user's values are always prepared
// afresh: filling starts from the template and may change the URL's host.
func (x *exchange) prepared(ti int) bool {
	return x.ready == ti+1 && x.sess == nil
}

// keepPrepared marks x.req as holding target ti's request as prepare made it, after a request
// that went out that way (unchanged by cookies, credentials or a user's values) and was
// answered. A failed request leaves x.req to be prepared again, whatever the failure did to it.
// Over HTTP/2 the client's own preparation (h2Client.prepare) finds such a request as it left
// it and changes nothing (TestRepeatedRequestsOverHTTP2).
func (l *Loader) keepPrepared(x *exchange, ti int, res *Result) {
	if res.Err == ErrNone && x.sess == nil {
		x.ready = ti + 1
	}
}

// sendsNone tells whether the jar has no cookie to add to any request: cookies.add then leaves
// a request as it is.
func (c *cookies) sendsNone() bool {
	return c == nil || !c.any.Load()
}
