package extract

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// MaxBody is how much of a body a rule reads, in bytes: a login form or a JSON answer has its
// value near the start, and the bound keeps a huge page from costing a parse of all of it per
// request (an HTML tree is several times the page's size). A value past it is a miss.
const MaxBody = 2 << 20

// maxBodyText names MaxBody in messages.
const maxBodyText = "2 MiB"

// Header is what a rule reads of a response's header. *fasthttp.ResponseHeader has this
// method set as it is, so the engine passes its own header without copying it.
type Header interface {
	// Peek returns the first value of the header name (in any case), nil or empty when absent.
	Peek(name string) []byte
	// PeekCookie returns the Set-Cookie of the cookie name, "name=value; attributes" or just
	// the value, nil when the response sets no such cookie.
	PeekCookie(name string) []byte
}

// Response is what a rule reads. It is handed over by value and its slices are only read
// during Extract, so they can point into buffers the caller reuses.
type Response struct {
	// Body is the decoded (uncompressed) body; only its first MaxBody bytes are read.
	Body []byte
	// Header may be nil: header and cookie rules then miss.
	Header Header
}

// ErrMissing is what every failed Extract matches with errors.Is: the response lacks the
// value, and the engine counts the request as a failure of kind extract.
var ErrMissing = errors.New("extracted value missing")

// MissingError is a failed Extract. Its message names the rule and why it missed, never a
// value from the response: those can be secrets (a session token) and messages are printed.
type MissingError struct {
	Rule Rule
	Why  string // "no match", "no such header", ...
}

// Error reads "extract NAME: SOURCE: why".
func (e *MissingError) Error() string {
	return fmt.Sprintf("extract %s: %s: %s", e.Rule.name, e.Rule.source, e.Why)
}

// Unwrap makes errors.Is(err, ErrMissing) true.
func (e *MissingError) Unwrap() error { return ErrMissing }

// Extract returns the rule's value in r, a copy that outlives r's buffers. A miss is a
// *MissingError. It is safe for concurrent use; work is bounded by MaxBody.
func (r Rule) Extract(resp Response) (string, error) {
	body, cut := resp.Body, false
	if len(body) > MaxBody {
		body, cut = body[:MaxBody], true
	}
	var v string
	var why string
	switch {
	case r.kind == kindRegex:
		v, why = r.regexValue(body)
	case r.kind == kindCSS && r.scan:
		v, why = r.scanAttr(body)
	case r.kind == kindCSS:
		v, why = r.cssValue(body)
	case r.kind == kindJSON:
		v, why = r.jsonValue(body)
	case r.kind == kindHeader:
		v, why = r.headerValue(resp.Header)
	case r.kind == kindCookie:
		v, why = r.cookieValue(resp.Header)
	default:
		why = "no rule"
	}
	if why == "" {
		return v, nil
	}
	if cut && strings.HasPrefix(why, "no match") {
		why = "no match in the first " + maxBodyText + why[len("no match"):]
	}
	return "", &MissingError{Rule: r, Why: why}
}

// regexValue is the first group's text, or the whole match's for a pattern without groups.
func (r Rule) regexValue(body []byte) (string, string) {
	m := r.re.FindSubmatchIndex(body)
	if m == nil {
		return "", "no match"
	}
	g := 0
	if r.re.NumSubexp() > 0 {
		g = 2
	}
	if m[g] < 0 {
		return "", "group 1 took no part in the match"
	}
	return string(body[m[g]:m[g+1]]), ""
}

// jsonValue reads a gjson path. Strings come unquoted and unescaped; numbers, booleans,
// objects and arrays as written, so a 20-digit id keeps its digits.
func (r Rule) jsonValue(body []byte) (string, string) {
	res := gjson.GetBytes(body, r.arg)
	switch {
	case !res.Exists() && !gjson.ValidBytes(body):
		return "", "no match: the body is not JSON"
	case !res.Exists():
		return "", "no match"
	case res.Type == gjson.Null:
		return "", "null"
	case res.Type == gjson.String:
		return res.Str, ""
	}
	return res.Raw, ""
}

// headerValue is the header's first value; an empty one counts as absent, since fasthttp
// cannot tell them apart.
func (r Rule) headerValue(h Header) (string, string) {
	if h == nil {
		return "", "no such header"
	}
	v := h.Peek(r.arg)
	if len(v) == 0 {
		return "", "no such header"
	}
	return string(v), ""
}

// cookieValue is the value of a Set-Cookie, as the client sends it back (quotes kept). An
// empty value is a miss: a server sets one to delete the cookie.
func (r Rule) cookieValue(h Header) (string, string) {
	var line []byte
	if h != nil {
		line = h.PeekCookie(r.arg)
	}
	if line == nil {
		return "", "no Set-Cookie for " + r.arg
	}
	line = bytes.TrimSpace(line)
	if rest, ok := bytes.CutPrefix(line, []byte(r.arg)); ok && len(rest) > 0 && rest[0] == '=' {
		line = rest[1:]
	}
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return "", "the Set-Cookie for " + r.arg + " is empty"
	}
	return string(line), ""
}
