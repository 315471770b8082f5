package loader

import (
	"bytes"
	"io"
)

// lineEnds turns the bare LF line ends of a response head, and of the trailers after a chunked
// body, into CRLF as they are read. RFC 9112 (2.2) lets a recipient accept a bare LF as a line
// end, and some small servers and devices send them; fasthttp only finds the end of a head or
// of trailers at CRLF CRLF, so it would wait for more bytes until the timeout. Empty lines
// before the status line, which fasthttp skips, are not the head's end; an interim (1xx)
// answer's head is followed by another head. A body passes untouched: a chunked one is followed
// chunk by chunk to find its trailers, as long as its framing is one that fasthttp reads (past
// anything else, which fasthttp refuses, it is not followed). The zero value is between
// answers.
type lineEnds struct {
	inHead   bool       // reading a head: from the request written to the head's blank line
	trailers bool       // reading the trailers after a chunked body
	started  bool       // a line of the head that is not empty came: its status line
	te       bool       // the head has a field "Transfer-Encoding: chunked"
	headReq  bool       // the request was HEAD: no body follows the head
	lastCR   bool       // the last byte read was a CR
	kind     lineKind   // what the current line is to lineEnds
	teLine   teScan     // a field line that may say Transfer-Encoding: chunked, as it is read
	teOpen   bool       // teLine ended, and the lines that continue it (obs-fold) may follow
	lineLen  int        // bytes of the current line read so far, CR included
	status   statusScan // the head's status line, as it is read
	chunks   chunkFollow
	over     []byte // fixed bytes that did not fit in the reader's buffer, read next
	bare     []int  // where bare LFs are in the bytes of the current read (its memory used again)
}

// chunkFollow follows the framing of a chunked body (RFC 9112 7.1) as fasthttp reads it.
type chunkFollow struct {
	on     bool
	state  chunkState
	digits int   // hex digits of the size line so far
	left   int64 // the chunk's size, then its bytes still to come
}

// chunkState is what the next byte of a chunked body belongs to.
type chunkState uint8

const (
	chunkSize   chunkState = iota // the hex digits of a chunk's size
	chunkExt                      // then whitespace or extensions, to the CR
	chunkSizeLF                   // the LF after it
	chunkData                     // the chunk's bytes
	chunkDataCR                   // the CR after them
	chunkDataLF                   // the LF after it
)

// start prepares for the answer to a new request; head tells that the request was HEAD.
func (e *lineEnds) start(head bool) {
	*e = lineEnds{inHead: true, headReq: head, over: e.over[:0], bare: e.bare[:0]}
}

// pending tells whether bytes of an earlier answer wait to be read.
func (e *lineEnds) pending() bool { return len(e.over) > 0 }

// read reads from r into p, with the line ends of heads and trailers fixed.
func (e *lineEnds) read(r io.Reader, p []byte) (int, error) {
	if len(e.over) > 0 {
		n := copy(p, e.over)
		e.over = e.over[:copy(e.over, e.over[n:])]
		return n, nil
	}
	n, err := r.Read(p)
	if n > 0 && (e.inHead || e.trailers || e.chunks.on) {
		n = e.follow(p, n)
	}
	return n, err
}

// follow follows the n bytes read into p and returns how many bytes p holds once their bare
// LFs are fixed. Answers with CRLF line ends, nearly all, are only scanned.
func (e *lineEnds) follow(p []byte, n int) int {
	b := p[:n]
	e.bare = e.bare[:0]
	for i := 0; i < n; {
		switch {
		case e.inHead || e.trailers:
			i = e.lines(b, i)
		case e.chunks.on:
			i = e.followChunks(b, i)
		default:
			i = n
		}
	}
	if len(e.bare) == 0 {
		return n
	}
	fixed := make([]byte, 0, n+len(e.bare)) // rare: only servers that send bare LFs pay for it
	from := 0
	for _, at := range e.bare {
		fixed = append(append(fixed, b[from:at]...), '\r')
		from = at
	}
	fixed = append(fixed, b[from:]...)
	m := copy(p, fixed)
	e.over = append(e.over, fixed[m:]...)
	return m
}

// lines reads the lines of a head or of trailers from b[i:] and returns where they end in b,
// or len(b).
func (e *lineEnds) lines(b []byte, i int) int {
	for i < len(b) {
		if e.lineLen == 0 && (e.started || e.trailers) && !e.teOpen {
			if i = skipFieldLines(b, i, e.trailers); i == len(b) {
				return i
			}
		}
		end := len(b)
		j := bytes.IndexByte(b[i:], '\n')
		if j >= 0 {
			end = i + j
		}
		if e.lineLen == 0 {
			e.startLine(b[i])
		}
		whole := e.lineLen == 0 && j >= 0
		switch {
		case e.kind == lineStatus && whole:
			e.status.scanWhole(b[i:end])
		case e.kind == lineStatus:
			e.status.scan(b[i:end])
		case e.kind == lineTE && whole:
			e.teLine.scanWhole(b[i:end])
		case e.kind == lineTE, e.kind == lineFold:
			e.teLine.scan(b[i:end])
		}
		if j < 0 {
			e.lineLen += end - i
			e.lastCR = b[end-1] == '\r'
			return len(b)
		}
		cr := e.lastCR && end == i || end > i && b[end-1] == '\r'
		if !cr {
			e.bare = append(e.bare, end)
		}
		length := e.lineLen + end - i
		e.lineLen, e.lastCR, i = 0, false, end+1
		if length > 1 || length == 1 && !cr {
			e.line()
		} else if e.blank() {
			return i
		}
	}
	return len(b)
}

// skipFieldLines returns where the field lines from b[i] on that end in CRLF and say nothing
// lineEnds reads end: nearly every line of a head, and every line of trailers, with CRLF.
func skipFieldLines(b []byte, i int, trailers bool) int {
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 2 || b[i+j-1] != '\r' || !trailers && b[i]|0x20 == 't' {
			return i
		}
		i += j + 1
	}
	return i
}

// startLine starts a line of a head or of trailers whose first byte is c: the status line and
// the field lines that may say Transfer-Encoding are read as they come.
func (e *lineEnds) startLine(c byte) {
	if e.teOpen {
		if c == ' ' || c == '\t' {
			e.kind = lineFold
			e.teLine.fold()
			return
		}
		e.teOpen = false
		e.te = e.te || e.teLine.chunked()
	}
	switch {
	case e.trailers:
		e.kind = lineOther
	case !e.started:
		e.kind, e.status = lineStatus, statusScan{}
	case c|0x20 == 't':
		e.kind, e.teLine = lineTE, teScan{}
	default:
		e.kind = lineOther
	}
}

// line takes a line of a head or of trailers that is not empty.
func (e *lineEnds) line() {
	switch e.kind {
	case lineStatus:
		e.started, e.te = true, false
	case lineTE, lineFold:
		e.teOpen = true // its value is known at the next line's first byte
	}
}

// blank takes an empty line and tells whether it ends the head or the trailers.
func (e *lineEnds) blank() bool {
	switch {
	case e.trailers:
		e.trailers = false
		return true
	case !e.started:
		return false // an empty line before the status line, which fasthttp skips
	}
	status, ok := e.status.code()
	if ok && status/100 == 1 && status != 101 {
		e.started = false // fasthttp reads the next head after an interim answer's
		return false
	}
	// A final answer's body, unless HEAD, 204 or 304; fasthttp reads Transfer-Encoding in
	// HTTP/1.1 alone.
	final := ok && status >= 200 && status != 204 && status != 304
	e.inHead = false
	e.chunks = chunkFollow{on: e.te && e.status.http11 && final && !e.headReq}
	return true
}

// followChunks follows the chunked body in b[i:] and returns where its last chunk ends in b
// (the trailers follow), or len(b).
func (e *lineEnds) followChunks(b []byte, i int) int {
	c := &e.chunks
	for i < len(b) {
		switch x := b[i]; c.state {
		case chunkSize:
			left, digits := c.left, c.digits
			for ; i < len(b) && digits < 16; i, digits = i+1, digits+1 {
				d := h1Unhex(b[i])
				if d < 0 {
					break
				}
				left = left<<4 | int64(d)
			}
			c.left, c.digits = left, digits
			switch {
			case digits > 15 || i < len(b) && digits == 0:
				c.on = false // fasthttp refuses a chunk size without digits, or of 16
				return len(b)
			case i < len(b):
				c.state = chunkExt
			}
			continue
		case chunkExt:
			// Whitespace or extensions, which fasthttp checks; up to a CR, never a LF.
			for i < len(b) && b[i] != '\r' && b[i] != '\n' {
				i++
			}
			switch {
			case i == len(b):
				return i
			case b[i] == '\n':
				c.on = false
				return len(b)
			}
			c.state = chunkSizeLF
		case chunkSizeLF, chunkDataCR, chunkDataLF:
			// fasthttp wants exactly a CRLF after a chunk's size line and after its data.
			want := byte('\n')
			if c.state == chunkDataCR {
				want = '\r'
			}
			if x != want {
				c.on = false
				return len(b)
			}
			switch {
			case c.state == chunkSizeLF && c.left == 0:
				// The last chunk: its trailers follow, lines up to an empty one.
				c.on, e.trailers, e.lineLen, e.lastCR = false, true, 0, false
				return i + 1
			case c.state == chunkSizeLF:
				c.state = chunkData
			case c.state == chunkDataCR:
				c.state = chunkDataLF
			default:
				*c = chunkFollow{on: true} // the next chunk
			}
		case chunkData:
			n := min(c.left, int64(len(b)-i))
			i, c.left = i+int(n), c.left-n
			if c.left == 0 {
				c.state = chunkDataCR
			}
			continue
		}
		i++
	}
	return len(b)
}
