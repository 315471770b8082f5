package loader

import "errors"

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
