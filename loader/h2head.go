package loader

import (
	"strings"

	"golang.org/x/net/http/httpguts"
	"golang.org/x/net/http2/hpack"
)

// h2BadHead is an answer's head that HTTP/2 calls malformed (RFC 9113 8.1.1, 8.2, 8.3): a bad
// response, as a malformed header line is over HTTP/1.1, whatever its :status says. The
// message names the fault, never the bytes, which may be a cookie's.
type h2BadHead struct{ why string }

func (e h2BadHead) Error() string { return "http2: cannot parse the answer's head: " + e.why }

// checkHead checks the fields of a header block: one :status and no other pseudo-field, before
// the others (none in trailers); names in lowercase; no line breaks in values; none of
// HTTP/1.1's connection-specific fields; one Content-Length, a number. The :status itself is
// h2Status's to read.
func checkHead(fields []hpack.HeaderField, trailers bool) error {
	regular, status := false, false
	length := ""
	for _, f := range fields {
		if strings.HasPrefix(f.Name, ":") {
			switch {
			case trailers:
				return h2BadHead{"a pseudo-field in its trailers"}
			case regular:
				return h2BadHead{"a pseudo-field after a regular field"}
			case f.Name != ":status":
				return h2BadHead{"a pseudo-field answers do not have"}
			case status:
				return h2BadHead{"two :status fields"}
			}
			status = true
			continue
		}
		regular = true
		if !lowercaseToken(f.Name) {
			return h2BadHead{"a field name that is not a lowercase token"}
		}
		if !httpguts.ValidHeaderFieldValue(f.Value) {
			return h2BadHead{"a field value with a control character"}
		}
		switch f.Name {
		case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
			return h2BadHead{"a connection-specific field, which HTTP/2 forbids"}
		case "content-length":
			if !allDigits(f.Value) || length != "" && f.Value != length {
				return h2BadHead{"a Content-Length that is not one number"}
			}
			length = f.Value
		}
	}
	return nil
}

// lowercaseToken tells whether name may name a field in HTTP/2: a token without uppercase.
func lowercaseToken(name string) bool {
	for i := 0; i < len(name); i++ {
		if 'A' <= name[i] && name[i] <= 'Z' {
			return false
		}
	}
	return httpguts.ValidHeaderFieldName(name)
}

// allDigits tells whether s is a decimal number without sign or spaces.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
