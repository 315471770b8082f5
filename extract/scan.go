package extract

import (
	"fmt"
	"strings"
)

// blanks separate the words of a rule; CR is one so a CRLF line's end is not part of a name.
const blanks = " \t\r"

// scanner walks a rule's text; pos is a byte offset into s.
type scanner struct {
	s   string
	pos int
}

func (p *scanner) end() bool { return p.pos >= len(p.s) }

func (p *scanner) fail(format string, args ...any) *Error {
	return &Error{Col: p.pos + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *scanner) blanks() {
	for !p.end() && isBlank(p.s[p.pos]) {
		p.pos++
	}
}

// word reads up to the next blank.
func (p *scanner) word() string {
	start := p.pos
	for !p.end() && !isBlank(p.s[p.pos]) {
		p.pos++
	}
	return p.s[start:p.pos]
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// IsName reports whether s can name a variable: a non-empty run of letters, digits and '_',
// the names a URL file's $(NAME) accepts, so every extracted value can be used.
func IsName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// isTokenByte tells the bytes of an HTTP token (RFC 9110), which header and cookie names are.
func isTokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c < 0x80 && c > ' ' && strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// isAttrName accepts what HTML attribute names are in practice: letters, digits, '-', '_',
// ':' and '.' (data-id, xlink:href, v-bind.x).
func isAttrName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_:.", c) >= 0) {
			return false
		}
	}
	return true
}
