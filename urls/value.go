package urls

import (
	"errors"
	"net/url"
	"strings"
)

// Place is where in a request a variable's value is put at request time, which decides how it
// is escaped. A value taken from a response or a data file is data: escaping it keeps it from
// changing the structure around it (a '&' in a token would start a new form field).
type Place uint8

const (
	// InURL is a path segment or query value: every byte but RFC 3986's unreserved ones
	// (letters, digits, - . _ ~) is %-escaped, which reads back the same in a path and a query.
	InURL Place = iota
	// InForm is an application/x-www-form-urlencoded body: form-encoded, a blank as '+'.
	InForm
	// InBody is any other body (JSON, XML, text): the value as is.
	InBody
	// InHeader is a header value: as is, but CR, LF and NUL are refused.
	InHeader
)

// ErrValueBreaksHeader reports a value with CR, LF or NUL for a header: sent, it would end the
// header and could start another one. The message never shows the value, which can be a secret.
var ErrValueBreaksHeader = errors.New("a value with CR, LF or NUL cannot go into a header")

// EscapeValue returns v escaped for where it is put. It lives with the URL grammar, not with
// extraction, because data-file values go to the same places and the line says where. It
// returns v itself, without copying, when nothing needs escaping.
func EscapeValue(v string, in Place) (string, error) {
	switch in {
	case InURL:
		return escapeComponent(v), nil
	case InForm:
		return url.QueryEscape(v), nil
	case InHeader:
		if strings.ContainsAny(v, "\r\n\x00") {
			return "", ErrValueBreaksHeader
		}
	}
	return v, nil
}

// BodyPlace is the place of a value in a body sent with contentType (the type the request is
// sent with, the run's default included): InForm for a form, InBody for anything else.
func BodyPlace(contentType string) Place {
	media, _, _ := strings.Cut(contentType, ";")
	if strings.EqualFold(strings.TrimSpace(media), "application/x-www-form-urlencoded") {
		return InForm
	}
	return InBody
}

// escapeComponent %-escapes every byte but the unreserved ones. url.PathEscape would keep
// '&', '=' and '+', which change a query's meaning, and url.QueryEscape writes a blank as '+',
// which a path keeps as a plus.
func escapeComponent(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !unreserved(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if unreserved(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&0x0f])
		}
	}
	return string(b)
}

// unreserved reports RFC 3986's unreserved bytes, which mean the same everywhere in a URL.
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
