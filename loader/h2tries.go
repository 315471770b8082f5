package loader

import (
	"errors"
	"net/http/httptrace"
	"net/textproto"
	"sync"
	"sync/atomic"
)

// maxInterim is how many informational (1xx) answers a request takes before its final one:
// fasthttp's own limit on HTTP/1.1, kept on HTTP/2, whose transport counts none of them (it
// bounds only their headers' size, and not at all once a trace watches them).
const maxInterim = 100

// errTooManyInterim is a request answered with more than maxInterim informational answers
// (103 Early Hints, 100 Continue...) before its final one: a server in a loop, which would
// otherwise hold the request until its timeout. It is a failure of kind ErrTooManyInterim.
var errTooManyInterim = errors.New("more than 100 informational (1xx) answers before the final answer")

// errStreamRefused is an HTTP/2 request that the server refused (RST_STREAM REFUSED_STREAM, or
// a GOAWAY that left it unprocessed) and that none of the transport's retries got an answer to
// before the timeout or the last retry. It is a failure of kind ErrRefused, as a refused
// connection is: the server would not take the request, which a timeout would hide.
var errStreamRefused = errors.New("http2: the server refused the request's stream (REFUSED_STREAM, or GOAWAY before it) and answered none of its retries")

// h2Tries follows what net/http's HTTP/2 transport does with one request, which it hides: it
// sends a refused request again (at once, then after 1 s, 2 s, 4 s... of back-off), and
// reads informational answers without a limit. Each attempt gets a connection (GotConn), so
// attempts after the first follow a refusal. The transport calls the trace from the request's
// goroutine and from the connection's reader, hence the atomics.
type h2Tries struct {
	trace    httptrace.ClientTrace
	attempts atomic.Int32 // the transport's attempts at the request so far
	interim  atomic.Int32 // informational answers to the latest attempt
}

// h2TriesPool keeps the traces of answered requests, whose method values are made once: a
// request the transport gave up on may still be traced by the connection's reader, so its
// h2Tries is left to the garbage collector instead.
var h2TriesPool = sync.Pool{New: func() any {
	t := &h2Tries{}
	t.trace.GotConn = t.gotConn
	t.trace.Got1xxResponse = t.got1xx
	return t
}}

// newH2Tries returns an h2Tries with nothing counted.
func newH2Tries() *h2Tries {
	t := h2TriesPool.Get().(*h2Tries)
	t.attempts.Store(0)
	t.interim.Store(0)
	return t
}

// release hands back the h2Tries of a request the transport answered: it calls it no more.
func (t *h2Tries) release() { h2TriesPool.Put(t) }

func (t *h2Tries) gotConn(httptrace.GotConnInfo) {
	t.attempts.Add(1)
	t.interim.Store(0)
}

// got1xx fails the attempt at the informational answer past maxInterim: the transport resets
// the stream and does not send it again.
func (t *h2Tries) got1xx(int, textproto.MIMEHeader) error {
	if t.interim.Add(1) > maxInterim {
		return errTooManyInterim
	}
	return nil
}

// failed is what a request the transport returned err for failed of, as classify knows it.
// A request sent again after a refusal whose last attempt got no answer at all, by the timeout
// or at the transport's last retry, was refused: the server's last word on it is a refusal,
// and the timeout only ended the transport's back-off.
func (t *h2Tries) failed(err error) error {
	if t.interim.Load() > maxInterim {
		return errTooManyInterim
	}
	err = h2Error(err)
	refused := refusedStream(err)
	if refused || t.attempts.Load() > 1 && t.interim.Load() == 0 && errors.Is(err, errH2Timeout) {
		return errStreamRefused
	}
	return err
}

// refusedStream tells whether err is a stream the server reset with REFUSED_STREAM, which the
// transport returns when its retries run out.
func refusedStream(err error) bool {
	code, ok := h2ErrCode(err, "StreamError", "Code")
	return ok && code == "REFUSED_STREAM"
}
