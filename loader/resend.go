package loader

import (
	"errors"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"
)

// roundTrip makes the request prepared in x, sending it again on another connection when the
// kept-alive connection it was given failed it in a way the server cannot have noticed, as
// browsers, curl and Go's client do. Without this, every server that closes idle connections
// (Apache, Node.js, gunicorn after a few seconds) would show false failures. It tells whether
// the request went out again.
//
// A request goes out again when nothing of it was written (the kept-alive connection was found
// closed by the server or holding bytes nobody asked for, or this client had retired it), or,
// once, when it was written on a kept-alive connection that then closed or reset before any
// byte of answer and its method is idempotent (RFC 9110 9.2.2), so that a second copy does no
// harm even if the server read the first. The attempts share the request's timeout; started
// is when the first one began.
func (l *Loader) roundTrip(x *exchange, started time.Duration) (resent bool, err error) {
	if err = l.client.Do(&x.req, &x.resp); err != nil {
		err = writeFailure(x, err)
	}
	written := false // a written request was resent already
	// Each unwritten attempt closes one pooled connection, so the pool bounds the loop; the
	// bound here only guards against a pool that keeps refilling with stale connections.
	for tries := 0; err != nil && tries < l.maxResends; tries++ {
		stale := errors.Is(err, errStaleConn)
		unwritten := stale || errors.Is(err, errRetiredConn)
		if !unwritten && (written || !resendable(x, err)) {
			break
		}
		left := l.cfg.Timeout - (time.Since(l.start) - started)
		if left <= 0 {
			break
		}
		written = written || !unwritten
		// A connection this client retired (after a 101, or a failed write) was left by its
		// own choice, not because the server closed it: taking another one is no resend.
		resent = resent || stale || !unwritten
		x.req.SetTimeout(left)
		if err = l.client.Do(&x.req, &x.resp); err != nil {
			err = writeFailure(x, err)
		}
	}
	x.req.SetTimeout(l.cfg.Timeout)
	return resent, err
}

// resendable tells whether a request that failed with err may go out again: it was written on
// a kept-alive connection that closed or reset before any byte of answer came, and a second
// copy of it does no harm.
func resendable(x *exchange, err error) bool {
	// fasthttp reports any failure to read the first byte of the answer as a closed
	// connection, resets included; a write that failed leaves the reset or broken pipe. Either
	// way fasthttp closed the connection, so its record is this request's alone; after other
	// failures (a timeout before any attempt) the response may still name an earlier request's
	// connection, which another request may be using.
	switch classify(err) {
	case ErrClosed, ErrReset:
	default:
		return false
	}
	c := wireOf(x.resp.LocalAddr())
	return c != nil && c.used && !c.answered() && idempotent(&x.req.Header)
}

// idempotent tells whether a request's method is idempotent (RFC 9110 9.2.2): sending it twice
// has the effect of sending it once.
func idempotent(h *fasthttp.RequestHeader) bool {
	return h.IsGet() || h.IsHead() || h.IsPut() || h.IsDelete() || h.IsOptions() || h.IsTrace()
}

// writeFailure returns why the request in x failed: err, fasthttp's word, unless the request
// could not be written and no answer came, which fasthttp reports as a closed connection.
func writeFailure(x *exchange, err error) error {
	if !errors.Is(err, fasthttp.ErrConnectionClosed) {
		return err // and the response may name an earlier request's connection, in use elsewhere
	}
	if c := wireOf(x.resp.LocalAddr()); c != nil && c.writeErr != nil && !c.answered() {
		return fmt.Errorf("writing the request: %w", c.writeErr)
	}
	return err
}
