package loader

import "time"

// Result is what one request yields: a small value with no pointers into fasthttp buffers, so
// it can be batched, copied and kept by the statistics without holding a response alive.
type Result struct {
	// Start is when the request was sent, measured from the start of the run.
	Start time.Duration
	// Intended is when the request should have been sent: its slot in the open model's
	// schedule, or Start in the closed model. Start-Intended is the time it waited.
	Intended time.Duration
	// Latency is the service time: connect (when a new connection is needed), write, server
	// time, and reading the headers and the full body.
	Latency time.Duration
	// BodyBytes is the size of the response body as received (de-chunked, still compressed
	// when the server compressed it). Zero when no response was read. Of a request that failed
	// in its body, it is what arrived before the failure, which no figure counts; of one that
	// failed a check (ErrCheck), the whole body, which figures count.
	BodyBytes int64
	// Decoded is the size of the body after undoing its Content-Encoding (gzip, deflate, br);
	// BodyBytes when it had none or one this client does not decode. Figures count it when they
	// count BodyBytes.
	Decoded int64
	// Target is the index of the target in the run's target list.
	Target int32
	// User is the virtual user that sent the request, from 0.
	User int32
	// Status is the HTTP status code, 0 when no response head was read. A response whose body
	// then failed keeps its status but is a failure (Err says why).
	Status uint16
	// Err says why no response was read; ErrNone when one was.
	Err ErrKind
	// Kind says what the request was for; KindPage marks a whole page visit, not a request.
	Kind Kind
	// OffHost is set on a redirect that was not followed because it led to a host that is
	// neither in the URL list nor allowed (Config.FollowAnyHost).
	OffHost bool
	// HTTP10 is set when the server answered with HTTP/1.0.
	HTTP10 bool
	// Queued is set in the open model when the request was due while every user was busy, so
	// it waited for one to become free.
	Queued bool
	// Arrival is set in the open model on the request that began a scheduled arrival: the
	// request itself, or in a browser-like run the first request of a URL's visit (the login
	// steps before a user's first URL belong to that visit). Redirect hops and resources that
	// follow are not arrivals, so the schedule's figures count visits.
	Arrival bool
	// Req numbers what a redirect hop or a resource requested, when the run has
	// Config.NameRequests (Loader.Request reads it); 0 for a target's own request, which its
	// Target names, and without NameRequests.
	Req uint32
	// AfterStop is set when the run was stopped (time up, interrupt) while this request was
	// in flight: it finished afterwards and is counted, where siege would drop it. On a
	// KindPage result it means the visit was cut short: the run stopped before every resource
	// of the page was requested, so the visit has no load time.
	AfterStop bool
	// Resent is set when the request went out a second time, on a new connection, because the
	// kept-alive connection it was first given turned out to be closed by the server (or to
	// hold bytes nobody asked for) before any answer to it arrived. Its latency includes the
	// failed attempt, as a browser's user would wait through it.
	Resent bool
	// Refresh is set on an HTML page (a 2xx text/html answer, parsed) whose <meta
	// http-equiv=refresh> leads to another URL: a browser goes there next, as after a redirect,
	// and so does a browser-like visit, when the host and the hop limit allow it (OffHost and
	// ErrTooManyHops say when they did not). A refresh that reloads the page itself is not one.
	// It is last in Result so that it fills padding rather than growing every Result.
	Refresh bool
	// Extracted is set on the answer the target's #@extract rules read (see Err ErrExtract
	// for one where a rule found nothing), so reports can count extractions. A request not sent
	// for want of a value (ErrExtract, Status 0) is not one. It fills the last byte of padding.
	Extracted bool
}

// Kind says what a request was for.
type Kind uint8

// The kinds of results. All but KindPage are requests, and transactions under siege's rules.
const (
	KindURL      Kind = iota // a URL of the list, or a redirect hop on its way
	KindResource             // an image, script, stylesheet or icon of the URL's HTML page
	KindLogin                // a login step, made once per user before its first URL
	// KindPage is not a request but the whole visit of a URL: from its first request to its
	// last resource, redirects included. Status and Err are those of the page itself.
	KindPage
)

// Redirected tells whether a response is a redirect a browser follows (301, 302, 303, 307,
// 308, or a page with a meta Refresh), whether or not this run followed it.
func (r *Result) Redirected() bool {
	if r.Err != ErrNone {
		return false
	}
	return redirectStatus(r.Status) || r.Refresh
}

// redirectStatus tells whether status is one of a redirect a browser follows.
func redirectStatus(status uint16) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// ResponseTime is the latency a visitor would see: from the intended start to the last byte.
// In the open model it includes the wait for a free user (coordinated-omission correct).
func (r *Result) ResponseTime() time.Duration {
	return r.Latency + r.Start - r.Intended
}

// Failed tells whether the request counts as a failed transaction under siege's rules: no
// response (socket error, timeout, bad response), or a 408 or 5xx status.
func (r *Result) Failed() bool {
	return r.Err != ErrNone || r.Status == 408 || r.Status >= 500
}

// Successful tells whether a response counts as successful under siege's rules: a status below
// 400, or 401 and 407 (auth challenges, which siege counts as successes).
func (r *Result) Successful() bool {
	return r.Err == ErrNone && (r.Status < 400 || r.Status == 401 || r.Status == 407)
}

// FailsLogin tells whether a login step's result (KindLogin: the last of its redirects, the
// answer the step ends at) fails its user's login: no answer, a failed check (#@check), a
// missing value (#@extract), or a status of 400 or more, which siege would not count as a
// failed transaction but which logs nobody in (401 and 403 included). A login whose steps all
// pass is made; a redirect on the way passes.
func (r *Result) FailsLogin() bool {
	return r.Err != ErrNone || r.Status >= 400
}

// Arrived tells whether the whole response arrived: one that did not fail (ErrNone), one
// that failed a check, or one whose #@extract rule found nothing in it (ErrExtract with a
// status; without one, nothing was sent). Its body is data received, and its page is a page.
func (r *Result) Arrived() bool {
	return r.Err.Answered() || r.Err == ErrExtract && r.Status != 0
}

// bodyBytes is BodyBytes as figures count it: nothing for a request that failed, but for one
// whose whole body arrived (see Arrived).
func (r *Result) bodyBytes() int64 {
	if !r.Arrived() {
		return 0
	}
	return r.BodyBytes
}

// decodedBytes is Decoded as figures count it, as bodyBytes counts BodyBytes.
func (r *Result) decodedBytes() int64 {
	if !r.Arrived() {
		return 0
	}
	return r.Decoded
}
