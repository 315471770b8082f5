package loader

import "bytes"

// lineKind is what a line of a head or of trailers is to lineEnds: it reads two kinds of
// lines, whole or byte by byte where reads split them.
type lineKind uint8

const (
	lineOther  lineKind = iota
	lineStatus          // a status line
	lineTE              // a field line that starts with a T, which may say Transfer-Encoding: chunked
	lineFold            // a line that continues a field that may say Transfer-Encoding (obs-fold)
)

// statusScan reads a status line's version and code as fasthttp does (see h1StatusCode):
// "HTTP/d.d", a space, any more spaces, three digits, then a space or the line's end (a CR
// may end it, before the LF).
type statusScan struct {
	at     uint8 // the next byte's place in "HTTP/d.d ddd ", more spaces left out
	bad    bool
	num    int
	http11 bool
}

// The places in a status line: the version's digits, the code's, then what may follow it.
const (
	statusMajor  = uint8(len("HTTP/"))
	statusMinor  = uint8(len("HTTP/d."))
	statusDigits = uint8(len("HTTP/d.d "))
	statusAfter  = statusDigits + 3 // a space, a CR or the line's end
	statusCR     = statusAfter + 1  // after a CR: the line's end
	statusDone   = statusCR + 1     // after the space: the reason, not read
)

// scan reads the next bytes of the line.
func (s *statusScan) scan(part []byte) {
	for _, c := range part {
		if s.bad || s.at == statusDone {
			return
		}
		switch at := s.at; {
		case at == statusMajor || at == statusMinor:
			s.bad = c < '0' || c > '9'
			s.http11 = c == '1' && (at == statusMajor || s.http11)
		case at < statusDigits:
			s.bad = c != "HTTP/d.d "[at]
		case at == statusDigits && c == ' ':
			continue // more spaces before the code
		case at < statusAfter:
			s.bad, s.num = c < '0' || c > '9', s.num*10+int(c-'0')
		case at == statusAfter && c == ' ':
			s.at = statusDone
			return
		case at == statusAfter && c == '\r':
		default:
			s.bad = true
		}
		s.at++
	}
}

// scanWhole reads a whole line, without its LF, as scan does, at once.
func (s *statusScan) scanWhole(line []byte) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	status, err := h1StatusCode(line)
	if err != nil {
		s.bad = true
		return
	}
	s.num, s.at, s.http11 = status, statusDone, line[statusMajor] == '1' && line[statusMinor] == '1'
}

// code returns the status code, and whether the line had one.
func (s *statusScan) code() (int, bool) {
	return s.num, !s.bad && s.at >= statusAfter
}

// teScan reads a field line as fasthttp does to tell whether it is "Transfer-Encoding:
// chunked": the name in any case, spaces before the colon, the value in any case with spaces
// and tabs around it, a CR at the end. fasthttp joins the lines that continue a field (obs-fold)
// to it with a space each, and drops the value's leading spaces: the value is "chunked" when
// the lines before the one that says it have an empty value, and none comes after it.
type teScan struct {
	at  uint8 // the next byte's place in "transfer-encoding:chunked", whitespace left out
	bad bool
	cr  bool // the last byte was a CR after the value
}

const (
	teName  = uint8(len("transfer-encoding"))
	teColon = teName + 1
	teEnd   = uint8(len("transfer-encoding:chunked"))
)

// scan reads the next bytes of the line.
func (s *teScan) scan(part []byte) {
	for _, c := range part {
		switch at := s.at; {
		case s.bad:
			return
		case s.cr:
			s.bad = true // a CR inside the value
		case c == ' ' && (at == teName || at == teColon || at == teEnd), c == '\t' && (at == teColon || at == teEnd):
		case c == '\r' && (at == teEnd || at == teColon):
			s.cr = true
		case at < teEnd && lower(c) == "transfer-encoding:chunked"[at]:
			s.at++
		default:
			s.bad = true
		}
	}
}

// scanWhole reads a whole line, without its LF, as scan does, at once.
func (s *teScan) scanWhole(line []byte) {
	name, value, colon := bytes.Cut(bytes.TrimSuffix(line, []byte("\r")), []byte(":"))
	value = h1TrimOWS(value)
	switch {
	case !colon || !h1EqualFold(bytes.TrimRight(name, " "), "transfer-encoding"):
		s.bad = true
	case h1EqualFold(value, "chunked"):
		s.at = teEnd
	case len(value) == 0:
		s.at = teColon // a line that continues it may say chunked
	default:
		s.bad = true
	}
}

// fold starts a line that continues the field: after a value that said "chunked", the joined
// value says more; after an empty one, this line may say it.
func (s *teScan) fold() {
	s.bad = s.bad || s.at != teColon
	s.cr = false
}

// chunked tells whether the line said Transfer-Encoding: chunked.
func (s *teScan) chunked() bool { return !s.bad && s.at == teEnd }

// lower is c in lower case, if a letter.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
