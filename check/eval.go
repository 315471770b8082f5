package check

import (
	"strconv"
	"unicode/utf8"
)

// Set is every condition one URL's answers must pass: the run's checks and the URL's own. A
// nil Set passes everything. It is read-only once made, so all users share it.
type Set struct {
	conds []cond
	body  bool // some condition reads the body's content
}

// NewSet joins expressions into one set; nil when they have no condition.
func NewSet(exprs ...Expr) *Set {
	var s Set
	for _, e := range exprs {
		for _, c := range e.conds {
			s.conds = append(s.conds, c)
			s.body = s.body || c.field == fieldBody
		}
	}
	if len(s.conds) == 0 {
		return nil
	}
	return &s
}

// Eval evaluates a Set on one response at a time: Start with the status when the response's
// head arrives, to learn whether the body must be held, then Finish once the whole body was
// read, which evaluates every condition. Finish runs after the response's time was taken: a
// regular expression's cost is the client's, never the server's. One goroutine owns an Eval and
// reuses it; it holds no buffer of its own.
type Eval struct {
	set    *Set
	status int
	size   int64
	failed int // the index of the first condition that failed, -1 for none
	// undecided marks a failed body condition that the held start of a longer body did not
	// decide; held is how long that start was.
	undecided bool
	held      int
}

// Start begins the evaluation of a response of status, and tells whether Finish will read the
// body's content: false when no condition looks at it, or when a status condition fails already,
// which decides the response without it.
func (e *Eval) Start(s *Set, status int) (needBody bool) {
	e.set, e.status, e.size, e.failed, e.undecided = s, status, 0, -1, false
	if s == nil || !s.body {
		return false
	}
	for i := range s.conds {
		c := &s.conds[i]
		if c.field == fieldStatus && !compare(int64(status), c.op, c.num) {
			return false
		}
	}
	return true
}

// Finish evaluates the response begun by Start and tells whether it passed every condition.
// header returns a response header's value (nil for a header the response lacks, an empty but
// not nil value for one that came empty). size is the decoded body's length in bytes, and body
// holds it decoded when Start asked for it: the whole of it, or its first len(body) bytes when
// it was longer than the caller holds (see search). The status and header conditions are
// evaluated first, each in the order written, then the size and body ones: the message names
// the first that failed.
func (e *Eval) Finish(header func(name string) []byte, size int64, body []byte) bool {
	e.size = size
	s := e.set
	if s == nil {
		return true
	}
	for i := range s.conds {
		c := &s.conds[i]
		switch c.field {
		case fieldStatus:
			if !compare(int64(e.status), c.op, c.num) {
				e.failed = i
				return false
			}
		case fieldHeader:
			if !c.header1(header(c.header)) {
				e.failed = i
				return false
			}
		}
	}
	for i := range s.conds {
		c := &s.conds[i]
		switch c.field {
		case fieldSize:
			if !compare(size, c.op, c.num) {
				e.failed = i
				return false
			}
		case fieldBody:
			found, decided := c.search(body, size)
			if !decided {
				e.failed, e.undecided, e.held = i, true, len(body)
				return false
			}
			if found != (c.op == opMatch) {
				e.failed = i
				return false
			}
		}
	}
	return true
}

// header1 tells whether a header's value passes c; v is nil when the response has no such
// header. An absent header equals no value, "" included, and differs from every one, as it
// matches no pattern.
func (c *cond) header1(v []byte) bool {
	switch c.op {
	case opEq:
		return v != nil && string(v) == c.str
	case opNe:
		return v == nil || string(v) != c.str
	case opMatch:
		return v != nil && c.re.Match(v)
	}
	return v == nil || !c.re.Match(v)
}

// search tells whether c's regular expression matches a body of size bytes, of which body holds
// the first: found is the answer on the whole body, as the expression means it (anchors at the
// body's ends, matches of any length), whenever decided is true.
//
// A body held whole is matched whole. Of a longer one only a match that ends at least
// utf8.UTFMax bytes before the end of what is held decides: everything the regexp engine looked
// at to accept it (the runes up to its end, the one after it for $, \b and \B) is the same in
// the whole body. Anything else would need the rest of the body, so it is left undecided, and
// the caller says so, rather than guess.
func (c *cond) search(body []byte, size int64) (found, decided bool) {
	if int64(len(body)) >= size {
		return c.re.Match(body), true
	}
	if at := c.re.FindIndex(body); at != nil && at[1]+utf8.UTFMax <= len(body) {
		return true, true
	}
	return false, false
}

// Message says which condition the last response failed, with its status or size where that
// condition was on them, and why a body condition was undecided; "" when it passed. Header
// values and the body are never quoted: they may hold a session or a token.
func (e *Eval) Message() string {
	if e.set == nil || e.failed < 0 {
		return ""
	}
	c := &e.set.conds[e.failed]
	msg := "check " + c.src + " failed"
	switch {
	case c.field == fieldStatus:
		msg += " (status " + strconv.Itoa(e.status) + ")"
	case c.field == fieldSize:
		msg += " (size " + strconv.FormatInt(e.size, 10) + " B)"
	case e.undecided:
		msg += ": undecided, the body (" + strconv.FormatInt(e.size, 10) + " B) is longer than the " +
			strconv.Itoa(e.held) + " B a check reads"
	}
	return msg
}

// compare applies a comparison to two numbers.
func compare(a int64, o op, b int64) bool {
	switch o {
	case opEq:
		return a == b
	case opNe:
		return a != b
	case opLt:
		return a < b
	case opLe:
		return a <= b
	case opGt:
		return a > b
	}
	return a >= b
}
