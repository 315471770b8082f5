package loader

import (
	"bytes"
	"io"
)

// lineEnds turns the bare LF line ends of a response head into CRLF as the head is read.
// RFC 9112 (2.2) lets a recipient accept a bare LF as a line end, and some small servers and
// devices send them; fasthttp only finds the end of a head at CRLF CRLF, so it would wait for
// more bytes until the timeout. Empty lines before the status line, which fasthttp skips, are
// not the head's end. An interim (1xx) answer's head is followed by another head, fixed too.
// Bodies pass untouched. The zero value is between heads.
type lineEnds struct {
	inHead  bool   // reading a head: from the request written to the head's blank line
	started bool   // a line of the head that is not empty came
	interim bool   // the head's status line is an interim answer's: another head follows
	lineLen int    // bytes of the head's current line read so far, CR included
	lastCR  bool   // the last byte read was a CR
	over    []byte // fixed bytes that did not fit in the reader's buffer, read next
	// status holds the start of the status line as it is read, the spaces before its code
	// squeezed into one: enough for the code and the byte after it. statusCut counts the
	// bytes of the line past it.
	status               [16]byte
	statusLen, statusCut int
}

// start prepares for the head of the answer to a new request.
func (e *lineEnds) start() {
	*e = lineEnds{inHead: true, over: e.over[:0]}
}

// pending tells whether bytes of an earlier answer wait to be read.
func (e *lineEnds) pending() bool { return len(e.over) > 0 }

// read reads from r into p, with the head's line ends fixed.
func (e *lineEnds) read(r io.Reader, p []byte) (int, error) {
	if len(e.over) > 0 {
		n := copy(p, e.over)
		e.over = e.over[:copy(e.over, e.over[n:])]
		return n, nil
	}
	n, err := r.Read(p)
	if e.inHead && n > 0 {
		n = e.fix(p, n)
	}
	return n, err
}

// fix fixes the line ends in the n bytes read into p and returns how many bytes p now holds.
// Answers with CRLF line ends, nearly all, are only scanned.
func (e *lineEnds) fix(p []byte, n int) int {
	b := p[:n]
	if e.lineLen == 0 && !e.lastCR && !(e.started && e.interim) && crlfHead(b, e.started) {
		e.inHead = false
		return n
	}
	end, bare := n, 0 // where the head ends in b, and its bare LFs
	lastCR := e.lastCR
	for start := 0; start < n; {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			e.keepStatus(b[start:n])
			e.lineLen += n - start
			lastCR = b[n-1] == '\r'
			break
		}
		i += start
		e.keepStatus(b[start:i])
		line := e.lineLen + i - start
		cr := lastCR
		if i > start {
			cr = b[i-1] == '\r'
		}
		if !cr {
			bare++
		}
		e.lineLen, lastCR, start = 0, false, i+1
		switch {
		case (line > 1 || line == 1 && !cr) && !e.started:
			e.started, e.interim = true, interimStatus(e.status[:e.statusLen], e.statusCut)
		case line > 1 || line == 1 && !cr:
		case e.started && e.interim:
			e.started, e.statusLen, e.statusCut = false, 0, 0 // the blank line: the next head follows
		case e.started:
			e.inHead, end = false, i+1 // the blank line: the body follows
		default:
			e.statusLen, e.statusCut = 0, 0 // an empty line before the status line
		}
		if !e.inHead {
			break
		}
	}
	startCR := e.lastCR
	e.lastCR = lastCR
	if bare == 0 {
		return n
	}
	fixed := make([]byte, 0, n+bare) // rare: only servers that send bare LFs pay for it
	for i, c := range b[:end] {
		if c == '\n' && !((i > 0 && b[i-1] == '\r') || (i == 0 && startCR)) {
			fixed = append(fixed, '\r')
		}
		fixed = append(fixed, c)
	}
	fixed = append(fixed, b[end:]...)
	m := copy(p, fixed)
	e.over = append(e.over, fixed[m:]...)
	return m
}

// crlfHead tells whether b, read from the start of a line of a head, holds the rest of the head
// with CRLF line ends only, and that head is a final answer's: what nearly every answer is,
// found by looking at each line end alone. Anything else goes through fix's account of lines
// that reads may split. started tells that a line that is not empty came before b.
func crlfHead(b []byte, started bool) bool {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 1 || b[i-1] != '\r' {
			return false
		}
		if i == 1 && started {
			return true // the blank line
		}
		if i > 1 && !started && interimStatus(b[:i], 0) {
			return false
		}
		started = started || i > 1
		b = b[i+1:]
	}
}

// keepStatus keeps the bytes of the status line that fit in status, as they are read.
func (e *lineEnds) keepStatus(part []byte) {
	if e.started {
		return
	}
	for _, c := range part {
		switch {
		case c == ' ' && e.statusLen == len("HTTP/d.d ") && e.status[len("HTTP/d.d")] == ' ':
			// a space before the code: fasthttp skips any number of them
		case e.statusLen < len(e.status):
			e.status[e.statusLen] = c
			e.statusLen++
		default:
			e.statusCut++
		}
	}
}

// interimStatus tells whether a status line is an interim answer's (1xx but 101), which
// fasthttp follows with another head. line is the line before its LF, but for the cut bytes
// past its start: with some cut, only a code and the space after it in line count.
func interimStatus(line []byte, cut int) bool {
	if cut == 0 {
		line = bytes.TrimSuffix(line, []byte("\r"))
	} else if i := bytes.IndexByte(line, ' '); i < 0 || bytes.IndexByte(bytes.TrimLeft(line[i:], " "), ' ') < 0 {
		return false
	}
	status, err := h1StatusCode(line)
	return err == nil && status/100 == 1 && status != 101
}
