package loader

import (
	"errors"

	"github.com/valyala/fasthttp"
)

// errBadStatus says a response's status code is no final HTTP status: below 100, or a 101
// to a request that asked for no protocol switch.
var errBadStatus = errors.New("the response's status code is not a final HTTP status")

// checkStatus fails a response whose status code is no answer to the request, which fasthttp
// takes as it comes: 000 (read as its default, 200), 099, or a 101 to a request without an
// Upgrade header. Such a response is a bad response and its HTTP/1.1 connection is not used
// again. Over HTTP/2 the same :status values fail the same way, and only their stream ends.
func checkStatus(x *exchange) error {
	code := x.resp.StatusCode()
	stream := x.resp.BodyStream()
	h2, _ := stream.(*h2Body)
	if h2 != nil {
		code = h2.status // "000" is 0 here, and a 200 in x.resp
	}
	c := wireOf(x.resp.LocalAddr())
	switch {
	case code < 100:
	case code == 101 && len(x.req.Header.Peek(fasthttp.HeaderUpgrade)) == 0:
		// fasthttp has already pooled the connection (a 101 has no body). It saw the 101 and
		// refuses the next request (errRetiredConn), which closes it; closing it here could
		// fail a request that took it from the pool meanwhile.
	case code == 200 && stream != nil && c != nil && c.statusCode() == "000":
		// While its body is unread, the connection is this response's alone, so its record of
		// the status line is this response's too.
	default:
		return nil
	}
	if s, ok := stream.(fasthttp.ReadCloserWithError); ok {
		_ = s.CloseWithError(errBadStatus) // drops the connection
	} else if h2 != nil {
		_ = h2.Close() // ends the stream; the connection serves the others
	}
	return errBadStatus
}
