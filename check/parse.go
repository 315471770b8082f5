// Package check holds response checks: expressions such as `status==200 && body!~"error"` that
// a response must pass to count as a success, their parser and their evaluation, with each
// regular expression's meaning on the whole decoded body. It knows nothing of HTTP clients: the
// caller hands it the status, a header lookup and the decoded body, or its start when the body
// is longer than the caller holds.
package check

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Expr is one parsed check: one or more conditions joined by &&, all of which must hold. Its
// zero value has no conditions and passes everything.
type Expr struct {
	src   string
	conds []cond
}

// field is what a condition looks at.
type field uint8

const (
	fieldStatus field = iota
	fieldSize         // the decoded body's size in bytes
	fieldBody         // the decoded body, matched by a regular expression
	fieldHeader       // a response header's first value
)

// op compares a field with a condition's value.
type op uint8

const (
	opEq op = iota
	opNe
	opLt
	opLe
	opGt
	opGe
	opMatch   // ~
	opNoMatch // !~
)

// cond is one condition of an expression.
type cond struct {
	src    string // the condition as written, for messages
	field  field
	op     op
	num    int64          // status or size
	str    string         // header value for == and !=
	re     *regexp.Regexp // body or header regex for ~ and !~
	header string         // the header's name
}

// Error is a problem in an expression, at a 1-based column (in bytes) of it.
type Error struct {
	Col int
	Msg string
}

// Error returns "col N: problem".
func (e *Error) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// Parse reads an expression: conditions joined by &&, each one of
//
//	status OP CODE        OP one of == != < <= > >=
//	size OP SIZE          SIZE a byte count with an optional unit: B, KB, KiB, MB, MiB, GB, GiB
//	body ~ "REGEX"        and body !~ "REGEX"
//	header:NAME ~ "REGEX" and !~, == "VALUE", != "VALUE"
//
// Strings are double-quoted, with \" and \\ as their only escapes. A problem is an *Error
// naming its column.
func Parse(s string) (Expr, error) {
	p := parser{s: s}
	var conds []cond
	for {
		p.blanks()
		if p.end() {
			if len(conds) == 0 {
				return Expr{}, p.fail("empty check: want status, size, body or header:NAME")
			}
			return Expr{}, p.fail("want a check after &&")
		}
		c, err := p.cond()
		if err != nil {
			return Expr{}, err
		}
		conds = append(conds, c)
		p.blanks()
		if p.end() {
			return Expr{src: strings.TrimSpace(s), conds: conds}, nil
		}
		if !p.take("&&") {
			return Expr{}, p.fail("want && between conditions, or the end of the check")
		}
	}
}

// String returns the expression as written, without surrounding blanks.
func (e Expr) String() string { return e.src }

// MarshalText implements encoding.TextMarshaler: an expression is saved, and fingerprinted, as
// written.
func (e Expr) MarshalText() ([]byte, error) { return []byte(e.src), nil }

// parser reads one expression; pos is a byte offset into s.
type parser struct {
	s   string
	pos int
}

func (p *parser) end() bool { return p.pos >= len(p.s) }

func (p *parser) fail(format string, args ...any) *Error {
	return &Error{Col: p.pos + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) blanks() {
	for !p.end() && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// take consumes tok when the input continues with it.
func (p *parser) take(tok string) bool {
	if strings.HasPrefix(p.s[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

// cond reads one condition.
func (p *parser) cond() (cond, error) {
	start := p.pos
	var c cond
	var err error
	switch {
	case p.take("status"):
		c.field = fieldStatus
		err = p.number(&c, "status", "a status code such as 200", parseStatus)
	case p.take("size"):
		c.field = fieldSize
		err = p.number(&c, "size", "a size such as 10KB", ParseSize)
	case p.take("body"):
		c.field = fieldBody
		err = p.pattern(&c, false)
	case p.take("header:"):
		c.field = fieldHeader
		err = p.header(&c)
	default:
		return cond{}, p.fail("want status, size, body or header:NAME")
	}
	if err != nil {
		return cond{}, err
	}
	c.src = strings.TrimSpace(p.s[start:p.pos])
	return c, nil
}

// comparisons are the operators of status and size, longest first so "<=" is not read as "<".
var comparisons = []struct {
	tok string
	op  op
}{{"==", opEq}, {"!=", opNe}, {"<=", opLe}, {">=", opGe}, {"<", opLt}, {">", opGt}}

// number reads a comparison and its numeric value, read by conv, after the field name.
func (p *parser) number(c *cond, name, want string, conv func(string) (int64, error)) error {
	p.blanks()
	if !p.comparison(c) {
		return p.fail("want ==, !=, <, <=, > or >= after %s", name)
	}
	p.blanks()
	start := p.pos
	for !p.end() && p.s[p.pos] != ' ' && p.s[p.pos] != '\t' && p.s[p.pos] != '&' {
		p.pos++
	}
	if start == p.pos {
		p.pos = start
		return p.fail("want %s", want)
	}
	n, err := conv(p.s[start:p.pos])
	if err != nil {
		p.pos = start
		return p.fail("%v", err)
	}
	c.num = n
	return nil
}

func (p *parser) comparison(c *cond) bool {
	for _, o := range comparisons {
		if p.take(o.tok) {
			c.op = o.op
			return true
		}
	}
	return false
}

func parseStatus(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 100 || n > 999 {
		return 0, fmt.Errorf("want a status code from 100 to 999 (got %q)", s)
	}
	return n, nil
}

// header reads NAME and what it is matched or compared with.
func (p *parser) header(c *cond) error {
	start := p.pos
	for !p.end() && isNameByte(p.s[p.pos]) {
		p.pos++
	}
	if start == p.pos {
		return p.fail("want a header name after header:")
	}
	c.header = p.s[start:p.pos]
	p.blanks()
	switch {
	case p.take("=="):
		c.op = opEq
	case p.take("!="):
		c.op = opNe
	default:
		return p.pattern(c, true)
	}
	p.blanks()
	str, err := p.quoted()
	c.str = str
	return err
}

// pattern reads ~ or !~ and a quoted regular expression.
func (p *parser) pattern(c *cond, equality bool) error {
	p.blanks()
	switch {
	case p.take("~"):
		c.op = opMatch
	case p.take("!~"):
		c.op = opNoMatch
	case equality:
		return p.fail("want ~, !~, == or != after the header name")
	default:
		return p.fail("want ~ or !~ after body")
	}
	p.blanks()
	start := p.pos
	src, err := p.quoted()
	if err != nil {
		return err
	}
	if c.re, err = regexp.Compile(src); err != nil {
		p.pos = start
		return p.fail("bad regular expression: %v", err)
	}
	return nil
}

// quoted reads a double-quoted string with \" and \\ escapes. Other backslashes are kept as
// they are, so a regular expression's \d or \. needs no doubling.
func (p *parser) quoted() (string, error) {
	if !p.take(`"`) {
		return "", p.fail(`want a double-quoted string`)
	}
	start := p.pos - 1
	var b strings.Builder
	for !p.end() {
		ch := p.s[p.pos]
		switch {
		case ch == '"':
			p.pos++
			return b.String(), nil
		case ch == '\\' && p.pos+1 < len(p.s) && (p.s[p.pos+1] == '"' || p.s[p.pos+1] == '\\'):
			b.WriteByte(p.s[p.pos+1])
			p.pos += 2
		default:
			b.WriteByte(ch)
			p.pos++
		}
	}
	p.pos = start
	return "", p.fail("string not closed: want a \" at its end")
}

// isNameByte tells the bytes of a header name: HTTP's token characters but for those that
// begin an operator (!, ~, =, <, >), which no real header name uses.
func isNameByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("#$%'*+-.^_`|", c) >= 0
}
