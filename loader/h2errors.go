package loader

import (
	"errors"
	"fmt"

	"golang.org/x/net/http2"
)

// maxInterim is how many informational (1xx) answers a request takes before its final one:
// fasthttp's own limit on HTTP/1.1, kept on HTTP/2.
const maxInterim = 100

// errTooManyInterim is a request answered with more than maxInterim informational answers
// (103 Early Hints, 100 Continue...) before its final one: a server in a loop, which would
// otherwise hold the request until its timeout. It is a failure of kind ErrTooManyInterim.
var errTooManyInterim = errors.New("more than 100 informational (1xx) answers before the final answer")

// errStreamRefused is an HTTP/2 request that the server refused (RST_STREAM REFUSED_STREAM, or
// a GOAWAY that left it unprocessed) and that none of the retries got an answer to before the
// timeout or the last retry. It is a failure of kind ErrRefused, as a refused connection is:
// the server would not take the request, which a timeout would hide.
var errStreamRefused = errors.New("http2: the server refused the request's stream (REFUSED_STREAM, or GOAWAY before it) and answered none of its retries")

// h2ProtocolError is a server that broke HTTP/2 so that its connection cannot go on (a
// connection error, RFC 9113 5.4.1): the client ends the connection with GOAWAY and code, and
// the connection's requests fail, naming what the server did.
type h2ProtocolError struct {
	code http2.ErrCode
	what string
}

func (e h2ProtocolError) Error() string {
	return fmt.Sprintf("http2: the server broke the protocol (%v): %s", e.code, e.what)
}

// protocolError names the fault of an error from reading the server's frames, when it is the
// server's: a frame the framer rejects, or a larger frame than the client takes.
func (c *h2Conn) protocolError(err error) error {
	var ce http2.ConnectionError
	switch {
	case errors.As(err, new(h2ProtocolError)):
		return err
	case errors.Is(err, http2.ErrFrameTooLarge):
		return h2ProtocolError{code: http2.ErrCodeFrameSize, what: fmt.Sprintf("a frame larger than the %d bytes the client takes", h2MaxReadFrame)}
	case errors.As(err, &ce):
		what := "a frame HTTP/2 forbids there"
		if detail := c.fr.ErrorDetail(); detail != nil {
			what = detail.Error()
		}
		return h2ProtocolError{code: http2.ErrCode(ce), what: what}
	}
	return err
}
