package loader

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/valyala/fasthttp"
)

// ErrKind says why a request got no usable response. It is a closed set so results stay small
// values and reports can count failures by kind.
type ErrKind uint8

// The kinds of failure, in the order reports list them.
const (
	ErrNone           ErrKind = iota // a response was read
	ErrRefused                       // connection refused (nothing listens on the port), or an HTTP/2 stream the server refused however often it was sent again
	ErrReset                         // connection reset or broken pipe while the response was read
	ErrTimeout                       // --timeout elapsed (connect, headers or body)
	ErrClosed                        // the server closed or reset the connection before the first response byte
	ErrBadResponse                   // the response could not be parsed
	ErrDNS                           // the host name could not be resolved
	ErrTooLarge                      // the body was larger than the client accepts
	ErrNoFreeConns                   // the client ran out of connections (a client-side limit)
	ErrTLS                           // the TLS handshake failed: untrusted certificate, wrong name, client certificate refused, no HTTP/2 (Config.HTTP2)
	ErrTooManyHops                   // still redirected (or meta-refreshed) after Config.MaxRedirects hops: a loop or too long a chain, which browsers fail too
	ErrTooManyInterim                // more than 100 informational (1xx) answers before the final one: a server in a loop
	ErrCheck                         // the response arrived whole but failed a check (Config.Checks, urls.Target.Checks)
	ErrExtract                       // a value the request needed, or one its response was to give (urls.Target.Extracts), is missing; Status is 0 when nothing was sent
	ErrLogin                         // not sent: the user's login steps (Config.Login) failed just before, so the URL would have been loaded logged out
	ErrOther                         // anything else (the message is reported separately)
	NumErrKinds                      // the number of kinds, for arrays indexed by kind
)

var errKindNames = [NumErrKinds]string{
	ErrNone:           "none",
	ErrRefused:        "refused",
	ErrReset:          "reset",
	ErrTimeout:        "timeout",
	ErrClosed:         "closed",
	ErrBadResponse:    "bad-response",
	ErrDNS:            "dns",
	ErrTooLarge:       "too-large",
	ErrNoFreeConns:    "no-free-conns",
	ErrTLS:            "tls",
	ErrTooManyHops:    "too-many-redirects",
	ErrTooManyInterim: "too-many-1xx",
	ErrCheck:          "check",
	ErrExtract:        "extract",
	ErrLogin:          "login",
	ErrOther:          "other",
}

// String returns the kind's stable name, used as a key in reports and JSON.
func (k ErrKind) String() string {
	if k < NumErrKinds {
		return errKindNames[k]
	}
	return "unknown"
}

// Answered tells whether a request of this kind got its whole response: none failed, or one
// that failed a check. Its body arrived, so it counts as data received.
func (k ErrKind) Answered() bool { return k == ErrNone || k == ErrCheck }

// ErrKinds lists every failure kind (without ErrNone) in report order.
func ErrKinds() []ErrKind {
	kinds := make([]ErrKind, 0, NumErrKinds-1)
	for k := ErrNone + 1; k < NumErrKinds; k++ {
		kinds = append(kinds, k)
	}
	return kinds
}

// classify maps an error from fasthttp or the dialer to its kind. Order matters: a timeout can
// also be a net.Error wrapping a syscall error.
func classify(err error) ErrKind {
	var dnsErr *net.DNSError
	switch {
	case err == nil:
		return ErrNone
	case errors.Is(err, fasthttp.ErrTimeout), errors.Is(err, fasthttp.ErrDialTimeout),
		errors.Is(err, fasthttp.ErrTLSHandshakeTimeout), errors.Is(err, os.ErrDeadlineExceeded):
		return ErrTimeout
	case errors.As(err, &dnsErr):
		return ErrDNS
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, errStreamRefused):
		return ErrRefused
	case errors.Is(err, errTooManyInterim), isTooManyInterim(err):
		return ErrTooManyInterim
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED):
		return ErrReset
	case errors.Is(err, fasthttp.ErrConnectionClosed),
		// Left unsent on a connection that cannot carry it, when no time was left for another.
		errors.Is(err, errStaleConn), errors.Is(err, errRetiredConn):
		return ErrClosed
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return ErrTooLarge
	case errors.Is(err, fasthttp.ErrNoFreeConns):
		return ErrNoFreeConns
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return ErrTimeout
	}
	if isTLSError(err) {
		return ErrTLS
	}
	var enc errBadEncoding
	if errors.As(err, &enc) || errors.Is(err, errBadStatus) || isParseError(err) {
		return ErrBadResponse
	}
	return ErrOther
}

// isTLSError recognises a failed TLS handshake, on either side.
func isTLSError(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	var alert tls.AlertError
	var op *net.OpError
	return errors.As(err, &verify) || errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &record) || errors.As(err, &alert) ||
		errors.Is(err, errNoHTTP2) ||
		// An alert from the server (say, a refused client certificate) arrives as this
		// net.OpError around an unexported type.
		(errors.As(err, &op) && op.Op == "remote error")
}

// isParseError recognises a response that arrived but could not be understood. fasthttp wraps
// most of these in plain formatted errors, so the message is the only stable mark.
func isParseError(err error) bool {
	var chunk fasthttp.ErrBrokenChunk
	var small *fasthttp.ErrSmallBuffer
	if errors.As(err, &chunk) || errors.As(err, &small) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "error when reading response headers") ||
		strings.Contains(msg, "cannot parse") ||
		strings.Contains(msg, "hex number") || // a broken chunk size
		strings.Contains(msg, "chunk") ||
		strings.Contains(msg, "error when reading response body")
}

// isTooManyInterim recognises fasthttp's error for an HTTP/1.1 answer preceded by more than
// maxInterim informational answers, which it does not export.
func isTooManyInterim(err error) bool {
	return strings.Contains(err.Error(), "too many 1xx informational responses")
}
