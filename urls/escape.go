package urls

import "strings"

// escapeRequestBytes %-escapes the bytes that may not appear in an HTTP
// request line, and nothing else: the URL must reach the server as written.
// Existing %XX escapes are kept (decoding or re-escaping them would change
// the request); a '%' that starts no escape becomes %25 so the result is
// still a valid URL.
func escapeRequestBytes(s string) string {
	if !needsEscape(s) {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteString(s[i : i+3])
			i += 2
		case c == '%' || unsafeByte(c):
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0x0f])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// needsEscape lets the common already-clean URL skip the copy.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' || unsafeByte(s[i]) {
			return true
		}
	}
	return false
}

// unsafeByte reports bytes that break request-line parsing or that RFC 3986
// forbids unescaped: blanks and controls, non-ASCII (UTF-8 is escaped byte
// by byte), and the delimiters "<>\^`{|}.
func unsafeByte(c byte) bool {
	if c <= ' ' || c >= 0x7f {
		return true
	}
	return strings.IndexByte("\"<>\\^`{|}", c) >= 0
}

// isHex reports whether c is a hexadecimal digit of either case.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
