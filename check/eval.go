package check

import (
	"errors"
	"io"
	"strconv"
)

// Window is how many bytes of a body a regular expression is matched over at once, beyond the
// chunk being scanned: a match up to Window bytes long is always found, a longer one may be
// missed. A body is scanned in blocks of up to 2*Window bytes, each starting with the last
// Window bytes of the block before, so every byte is scanned about twice and a user with body
// checks holds 2*Window bytes, however long the bodies are.
const Window = 32 << 10

// Set is every condition one URL's answers must pass: the run's checks and the URL's own. A
// nil Set passes everything. It is read-only once made, so all users share it.
type Set struct {
	conds []cond
	body  int // conditions on the body's content, which need it streamed through a window
}

// NewSet joins expressions into one set; nil when they have no condition.
func NewSet(exprs ...Expr) *Set {
	var s Set
	for _, e := range exprs {
		for _, c := range e.conds {
			s.conds = append(s.conds, c)
			if c.field == fieldBody {
				s.body++
			}
		}
	}
	if len(s.conds) == 0 {
		return nil
	}
	return &s
}

// Eval evaluates a Set on one response at a time: Start with the status and headers, then the
// decoded body through Write or ReadFrom when Start asks for it, then Finish. One goroutine
// owns an Eval and reuses it, so its window is allocated once.
type Eval struct {
	set    *Set
	status int
	size   int64
	failed int    // the index of the first condition that failed, -1 for none
	found  []bool // per condition: a body regex has matched
	open   int    // body conditions not decided yet
	win    []byte // the window: a kept tail of Window bytes (or less) and the bytes after it
	kept   int    // bytes at win's start that were scanned already
	fresh  bool   // win holds bytes not scanned yet, or nothing was scanned
}

// Start begins the evaluation of a response of status whose headers header returns (nil for a
// header the response lacks, an empty but not nil value for one that came empty). It tells whether the body is needed: false when no condition
// looks at its content, or when the status or a header already failed.
func (e *Eval) Start(s *Set, status int, header func(name string) []byte) (needBody bool) {
	e.set, e.status, e.size, e.failed = s, status, 0, -1
	e.open, e.kept, e.fresh = 0, 0, true
	e.win = e.win[:0]
	if s == nil {
		return false
	}
	if cap(e.found) < len(s.conds) {
		e.found = make([]bool, len(s.conds))
	}
	e.found = e.found[:len(s.conds)]
	clear(e.found)
	for i := range s.conds {
		c := &s.conds[i]
		switch c.field {
		case fieldStatus:
			if !compare(int64(status), c.op, c.num) {
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
	e.open = s.body
	if e.open > 0 && e.win == nil {
		e.win = make([]byte, 0, 2*Window)
	}
	return e.open > 0
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

// Write scans a chunk of the decoded body. It never fails.
func (e *Eval) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && e.open > 0 {
		if len(e.win) == cap(e.win) {
			e.slide()
		}
		m := copy(e.win[len(e.win):cap(e.win)], p)
		e.win, p, e.fresh = e.win[:len(e.win)+m], p[m:], true
	}
	return n, nil
}

// ReadFrom reads the decoded body from r to its end straight into the window, scanning it; once
// every body condition is decided, the rest is read and discarded. An io.EOF ends it cleanly.
func (e *Eval) ReadFrom(r io.Reader) (int64, error) {
	var n int64
	for e.open > 0 {
		if len(e.win) == cap(e.win) {
			e.slide()
		}
		m, err := r.Read(e.win[len(e.win):cap(e.win)])
		e.win, n = e.win[:len(e.win)+m], n+int64(m)
		if m > 0 {
			e.fresh = true
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	m, err := io.Copy(io.Discard, r)
	return n + m, err
}

// slide scans the full window and keeps its last Window bytes for the next block, so a match
// across the edge of two blocks is found.
func (e *Eval) slide() {
	e.scan()
	e.kept = copy(e.win, e.win[len(e.win)-Window:])
	e.win = e.win[:e.kept]
	e.fresh = false
}

// scan matches the open body conditions over the window.
func (e *Eval) scan() {
	for i := range e.set.conds {
		c := &e.set.conds[i]
		if c.field != fieldBody || e.found[i] || e.open == 0 {
			continue
		}
		if !c.re.Match(e.win) {
			continue
		}
		e.found[i] = true
		e.open--
		if c.op == opNoMatch && e.failed < 0 {
			e.failed = i
			e.open = 0 // one failure decides the response; the rest need not be scanned
		}
	}
}

// Finish ends the response, whose decoded body was size bytes, and tells whether it passed
// every condition.
func (e *Eval) Finish(size int64) bool {
	e.size = size
	if e.set == nil {
		return true
	}
	if e.open > 0 && e.fresh {
		e.scan()
	}
	for i := range e.set.conds {
		if e.failed >= 0 {
			break
		}
		c := &e.set.conds[i]
		switch c.field {
		case fieldSize:
			if !compare(size, c.op, c.num) {
				e.failed = i
			}
		case fieldBody:
			if e.found[i] != (c.op == opMatch) {
				e.failed = i
			}
		}
	}
	return e.failed < 0
}

// Message says which condition the last response failed, with its status or size where that
// condition was on them; "" when it passed. Header values and the body are never quoted: they
// may hold a session or a token.
func (e *Eval) Message() string {
	if e.set == nil || e.failed < 0 {
		return ""
	}
	c := &e.set.conds[e.failed]
	msg := "check " + c.src + " failed"
	switch c.field {
	case fieldStatus:
		msg += " (status " + strconv.Itoa(e.status) + ")"
	case fieldSize:
		msg += " (size " + strconv.FormatInt(e.size, 10) + " B)"
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
