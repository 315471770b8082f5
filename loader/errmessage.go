package loader

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/valyala/fasthttp"
)

// sampleMessage is what reports say about a failure of kind: the error's own message, except
// for a response that could not be read, which is described by the class of its fault. Parse
// errors quote the bytes they choke on (fasthttp's SecureErrorLogMessage drops the buffer but
// not the quoted line), and those bytes can be a Set-Cookie value or a token: reports and saved
// results must never carry them.
func (l *Loader) sampleMessage(kind ErrKind, err error) string {
	var small *fasthttp.ErrSmallBuffer
	if errors.As(err, &small) || errors.Is(err, errH1HeadTooLarge) {
		// fasthttp's own message ("increase ReadBufferSize") names a knob users do not have;
		// this one names the setting in the words of Config.SettingName.
		setting := l.cfg.name("HeaderBuffer")
		if n := l.cfg.headerBuffer(); n < MaxHeaderBuffer {
			return fmt.Sprintf("response headers longer than the %d-byte header buffer (raise %s, up to %dMB)", n, setting, MaxHeaderBuffer>>20)
		}
		return fmt.Sprintf("response headers longer than %dMB, the largest %s: too large to read", MaxHeaderBuffer>>20, setting)
	}
	switch kind {
	case ErrTooManyInterim:
		return errTooManyInterim.Error() // fasthttp's own names neither the limit nor the answers
	case ErrBadResponse:
		return badResponseMessage(err)
	}
	return err.Error()
}

// badResponseMessage names the class of a response that could not be read, in fixed words.
// fasthttp builds most of its parse errors with fmt.Errorf, so some classes are told apart by
// the words of the message; only those words are used, never the message itself.
func badResponseMessage(err error) string {
	var chunk fasthttp.ErrBrokenChunk
	var enc errBadEncoding
	var h1 h1Malformed
	if errors.As(err, &h1) {
		return h1.sample // the event loop's parser says which class
	}
	msg := err.Error()
	inHeaders := strings.Contains(msg, "error when reading response headers") ||
		strings.Contains(msg, "error when reading response trailer")
	// What fasthttp says after its "error when reading response headers: " prefix.
	_, detail, _ := strings.Cut(msg, "response headers")
	switch {
	case inHeaders && (errors.Is(err, fasthttp.ErrDuplicateContentLength) ||
		errors.Is(err, fasthttp.ErrNonNumericChars) || strings.Contains(detail, "content-length")):
		return "cannot parse response headers: bad Content-Length"
	case inHeaders && (errors.Is(err, fasthttp.ErrUnsupportedTransferEncoding) ||
		strings.Contains(detail, "transfer-encoding")):
		return "cannot parse response headers: bad Transfer-Encoding"
	case inHeaders && (errors.Is(err, fasthttp.ErrResponseFirstLineMissingSpace) ||
		errors.Is(err, fasthttp.ErrUnexpectedStatusCodeChar) || strings.Contains(detail, "status code") ||
		strings.Contains(detail, "http version") || strings.Contains(detail, "first line")):
		return "cannot parse response headers: malformed status line"
	case inHeaders && (errors.Is(err, fasthttp.ErrBadTrailer) || strings.Contains(detail, "forbidden trailer")):
		return "cannot parse response headers: a field that cannot be a trailer"
	case inHeaders && errors.Is(err, io.EOF):
		return "cannot parse response headers: connection closed inside the headers"
	case inHeaders && (strings.Contains(detail, "mime header") || strings.Contains(detail, "header key") ||
		strings.Contains(detail, "header value") || strings.Contains(detail, "trailer")):
		return "cannot parse response headers: malformed header line"
	case inHeaders:
		return "cannot parse response headers"
	case errors.As(err, &chunk) || strings.Contains(msg, "hex number") || strings.Contains(msg, "chunk"):
		return "cannot read response body: broken chunked encoding"
	case errors.As(err, &enc):
		return "cannot decode response body: not what its Content-Encoding says"
	case errors.As(err, new(h2BodyLength)):
		return "cannot read response body: its length is not its Content-Length"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "cannot read response body: connection closed before its end"
	case strings.Contains(msg, "response body"):
		return "cannot read response body"
	}
	return "cannot parse response"
}

// describedError is err under the message reports give it (see sampleMessage), for errors
// that are printed rather than sampled; errors.Is and errors.As still see err.
type describedError struct {
	msg string
	err error
}

func (e describedError) Error() string { return e.msg }
func (e describedError) Unwrap() error { return e.err }

// described returns err with its report message.
func (l *Loader) described(err error) error {
	return describedError{msg: l.sampleMessage(classify(err), err), err: err}
}
