package loader

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/valyala/fasthttp"
)

// h1Answer follows one HTTP/1.1 answer as its bytes arrive, for an event loop that reads
// non-blocking sockets and only needs the answer's figures: it reads the head, counts the body
// and never keeps it. Only a head or trailer line that a read splits is copied, into a buffer
// that the next answers reuse, so a steady stream of answers allocates nothing. The zero value
// is unusable: call reset.
type h1Answer struct {
	// The results, valid once the answer is done.
	status  int   // the final answer's status code; informational ones (1xx but 101) are skipped
	http10  bool  // the final answer's status line said HTTP/1.0
	body    int64 // body bytes received, de-chunked: chunk lines, their CRLFs and trailers not counted
	close   bool  // the connection must not carry another request
	interim int   // informational answers skipped before the final one

	head    bool  // the request was HEAD: no body follows, whatever the head says
	maxHead int   // the most bytes of a head, and of the trailers
	maxBody int64 // the most body bytes taken; 0 for no limit

	state   h1State
	err     error  // why the answer failed, once state is h1Failed
	fed     bool   // some byte of the answer came
	line    []byte // the start of a head or trailer line that the last feed ended inside
	used    int    // bytes of the current head, trailers or chunk line, against their bound
	left    int64  // bytes left of a Content-Length body or of a chunk; a chunk's size as it is read
	digits  int    // hex digits of the chunk size read so far
	length  int64  // the head's Content-Length; -1 without one
	chunked bool   // the head has a Transfer-Encoding field, which says chunked (the only coding taken)
	closing bool   // the head's Connection field says close, or a name has a space (see h1FieldLine)
	keep    bool   // the head's first kept Connection field says keep-alive (see endField)
	upgrade bool   // the head's first kept Connection field says upgrade
	conned  bool   // a Connection field was kept
	headed  bool   // the final head is whole

	// A field line is read once the next line shows that no folded line continues it
	// (obs-fold, RFC 9112 5.2): field is which of the fields read it is, fielded that a field
	// line came in this head or these trailers, pend the value of a Connection,
	// Content-Length or Transfer-Encoding field so far (Content-Type and Content-Encoding
	// grow in ctype and cenc).
	field   h1Field
	fielded bool
	pend    []byte

	// What the loop asks of a final head beyond its framing: its Content-Type and
	// Content-Encoding (copied, valid until the next reset), and the body bytes to keep,
	// which keepFor says when the head is whole (see loop.keepFor).
	ctype, cenc []byte
	keepFor     func() int
	kept        []byte // the body's first keepMax bytes, de-chunked
	keepMax     int
	keptAll     bool // kept holds the whole body
	// budget, when set, is the bytes all of a loop's answers may keep at once, shared: kept
	// bytes take from it until reset gives them back. starved tells that it ran out.
	budget  *int
	starved bool
}

// h1Field is a field that h1Answer reads; h1Other stands for the fields it only checks.
type h1Field uint8

const (
	h1Other h1Field = iota
	h1Connection
	h1ContentLength
	h1ContentType
	h1ContentEncoding
	h1TransferEncoding
	h1Trailer
)

// h1State is what the next byte of an answer belongs to.
type h1State uint8

const (
	h1Status   h1State = iota // the status line
	h1Fields                  // the header lines after it
	h1Length                  // a body of Content-Length bytes
	h1ToClose                 // a body that ends when the server closes the connection
	h1Size                    // the hex digits of a chunk's size
	h1SizeEnd                 // after them: extensions, whitespace or the line end
	h1SizeWS                  // whitespace after them, then the line end
	h1Ext                     // a chunk extension, skipped to the line end
	h1SizeLF                  // the LF after the chunk line's CR
	h1Chunk                   // a chunk's data
	h1ChunkCR                 // the CR after a chunk's data
	h1ChunkLF                 // the LF after it
	h1Trailers                // the trailer lines after the last chunk
	h1Done
	h1Failed
)

// h1MaxChunkLine bounds a chunk-size line, extensions included. They are skipped, but a line
// without end would hold the answer until its deadline.
const h1MaxChunkLine = 8 << 10

// h1MaxLength is the largest Content-Length taken: far beyond any body, and small enough that
// counting bytes against it cannot overflow.
const h1MaxLength = 1 << 62

// h1Malformed is an answer that breaks HTTP/1.1's syntax (RFC 9112). It is a bad response;
// the message names the fault in fixed words, never the bytes, which may be a cookie's. sample
// is what reports say of it: the words they give the same fault on the goroutine engine (see
// badResponseMessage).
type h1Malformed struct{ why, sample string }

func (e h1Malformed) Error() string { return "http/1.1: cannot parse the answer: " + e.why }

// The faults of an answer. Each is its own value so that tests can tell them apart; they are
// interfaces already, so returning one allocates nothing.
var (
	errH1Version      error = h1Malformed{"a status line without an HTTP version and a space", "cannot parse response headers: malformed status line"}
	errH1StatusLine   error = h1Malformed{"a status line without a 3-digit status code", "cannot parse response headers: malformed status line"}
	errH1BareCR       error = h1Malformed{"a CR inside a line", "cannot parse response headers: malformed header line"}
	errH1FieldLine    error = h1Malformed{"a header line that is not a name, a colon and a value", "cannot parse response headers: malformed header line"}
	errH1Fold         error = h1Malformed{"a folded header line", "cannot parse response headers: malformed header line"}
	errH1Length       error = h1Malformed{"a Content-Length that is not a number", "cannot parse response headers: bad Content-Length"}
	errH1Lengths      error = h1Malformed{"more than one Content-Length field", "cannot parse response headers: bad Content-Length"}
	errH1ChunkSize    error = h1Malformed{"a chunk size that is not a hex number of up to 15 digits", "cannot read response body: broken chunked encoding"}
	errH1ChunkEnd     error = h1Malformed{"chunk data not followed by CRLF", "cannot read response body: broken chunked encoding"}
	errH1TE           error = h1Malformed{"a Transfer-Encoding other than chunked, or two of them", "cannot parse response headers: bad Transfer-Encoding"}
	errH1Trailer      error = h1Malformed{"a trailer field, or a name in a Trailer field, that cannot be a trailer", "cannot parse response headers: a field that cannot be a trailer"}
	errH1HeadCut      error = h1Malformed{"the connection closed inside the head", "cannot parse response headers: connection closed inside the headers"}
	errH1HeadTooLarge error = h1Malformed{"a head or trailers longer than the limit", "cannot parse response headers"}
	errH1StatusBelow  error = fmt.Errorf("http/1.1: a status code below 100: %w", errBadStatus)
	errH1NoAnswer     error = fmt.Errorf("http/1.1: %w", fasthttp.ErrConnectionClosed)
)

// reset prepares for the answer to a new request. head tells that the request was HEAD.
// maxHead (positive) bounds a head (status line, header lines, blank line) and the trailers,
// each; a longer one fails with errH1HeadTooLarge. maxBody bounds the body, 0 for no limit: a
// byte past it fails the answer with errTooLarge, with body set to maxBody. The buffer for
// split lines is kept.
func (a *h1Answer) reset(head bool, maxHead int, maxBody int64) {
	if a.budget != nil {
		*a.budget += len(a.kept)
	}
	*a = h1Answer{line: a.line[:0], head: head, maxHead: maxHead, maxBody: maxBody, length: -1,
		ctype: a.ctype[:0], cenc: a.cenc[:0], keepFor: a.keepFor, kept: a.kept[:0], keptAll: true,
		budget: a.budget, pend: a.pend[:0]}
}

// started tells whether any byte of the answer came: a request whose answer has not started
// may be sent again on a new connection when a kept-alive one turns out closed.
func (a *h1Answer) started() bool { return a.fed }

// feed takes the next bytes read from the connection. n is how many of them are this answer's:
// when done, the bytes after n are not (the caller drops the connection); until then, all are.
// err tells that the bytes cannot be an answer (n then says little). After done or err, feed
// is not called again before reset.
func (a *h1Answer) feed(p []byte) (n int, done bool, err error) {
	if len(p) > 0 {
		a.fed = true
	}
	i := 0
	for i < len(p) && a.state < h1Done {
		switch a.state {
		case h1Status, h1Fields, h1Trailers:
			line, next, err := a.nextLine(p, i)
			if err != nil {
				return i, false, a.fail(err)
			}
			if next < 0 {
				return len(p), false, nil // the line goes on in the next read
			}
			i = next
			if err := a.headLine(line); err != nil {
				return i, false, a.fail(err)
			}
		case h1Length, h1Chunk, h1ToClose:
			take := int64(len(p) - i)
			if a.state != h1ToClose && take > a.left {
				take = a.left
			}
			if a.maxBody > 0 && a.body+take > a.maxBody {
				i += int(a.maxBody - a.body)
				a.body = a.maxBody
				return i, false, a.fail(errTooLarge)
			}
			if a.keepMax > 0 {
				a.keepBody(p[i : i+int(take)])
			}
			a.body += take
			a.left -= take
			i += int(take)
			switch {
			case a.state == h1ToClose || a.left > 0:
			case a.state == h1Length:
				a.state = h1Done
			default:
				a.state = h1ChunkCR
			}
		default:
			if err := a.chunkByte(p[i]); err != nil {
				return i, false, a.fail(err)
			}
			i++
		}
	}
	return i, a.state == h1Done, nil
}

// closed tells the answer that the server closed the connection. That ends a body delimited
// by the close (done); any other answer is cut short, and one with no byte is no answer.
func (a *h1Answer) closed() (done bool, err error) {
	switch a.state {
	case h1ToClose, h1Done:
		a.state = h1Done
		return true, nil
	case h1Failed:
		return false, a.err
	}
	switch {
	case !a.fed:
		return false, a.fail(errH1NoAnswer)
	case a.state == h1Status || a.state == h1Fields:
		return false, a.fail(errH1HeadCut)
	}
	return false, a.fail(io.ErrUnexpectedEOF)
}

// fail ends the answer with err.
func (a *h1Answer) fail(err error) error {
	a.state, a.err = h1Failed, err
	return err
}

// nextLine returns the line of a head or trailers that starts at p[i], without its line end,
// and the index past it; next is -1 when p ends inside the line, which is kept for the next
// feed. A bare LF ends a line as CRLF does (RFC 9112 2.2); a CR elsewhere is a fault, found
// by the line's reader.
func (a *h1Answer) nextLine(p []byte, i int) (line []byte, next int, err error) {
	rest := p[i:]
	end := bytes.IndexByte(rest, '\n')
	if end < 0 {
		if a.used+len(a.line)+len(rest) > a.maxHead {
			return nil, 0, errH1HeadTooLarge
		}
		a.line = append(a.line, rest...)
		return nil, -1, nil
	}
	if a.used += len(a.line) + end + 1; a.used > a.maxHead {
		return nil, 0, errH1HeadTooLarge
	}
	line = rest[:end]
	if len(a.line) > 0 {
		// line is read before a.line grows again, so they can share an array.
		line = append(a.line, line...)
		a.line = a.line[:0]
	}
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, i + end + 1, nil
}

// headLine takes a whole line of a head or of trailers.
func (a *h1Answer) headLine(line []byte) error {
	switch {
	case a.state == h1Status:
		return a.statusLine(line)
	case len(line) > 0 && (line[0] == ' ' || line[0] == '\t'):
		return a.fold(line)
	}
	if err := a.endField(); err != nil {
		return err
	}
	switch {
	case len(line) == 0 && a.state == h1Trailers:
		a.state = h1Done
		return nil
	case len(line) == 0:
		return a.endHead()
	}
	name, value, spaced, err := h1FieldLine(line)
	if err != nil {
		return err
	}
	if a.fielded = true; a.state == h1Trailers {
		if h1NotTrailer(name) {
			return errH1Trailer
		}
		return nil // trailers are checked, not read
	}
	a.closing = a.closing || spaced
	// Only three fields frame an answer; the length tells most names apart at once.
	switch {
	case len(name) == len("connection") && h1EqualFold(name, "connection"):
		a.field, a.pend = h1Connection, append(a.pend[:0], value...)
	case len(name) == len("content-length") && h1EqualFold(name, "content-length"):
		a.field, a.pend = h1ContentLength, append(a.pend[:0], value...)
	case len(name) == len("content-type") && h1EqualFold(name, "content-type"):
		a.field, a.ctype = h1ContentType, append(a.ctype[:0], value...)
	case len(name) == len("content-encoding") && h1EqualFold(name, "content-encoding"):
		a.field, a.cenc = h1ContentEncoding, append(a.cenc[:0], value...)
	case len(name) == len("transfer-encoding") && h1EqualFold(name, "transfer-encoding"):
		a.field, a.pend = h1TransferEncoding, append(a.pend[:0], value...)
	case len(name) == len("trailer") && h1EqualFold(name, "trailer"):
		a.field, a.pend = h1Trailer, append(a.pend[:0], value...)
	}
	return nil
}

// fold takes a line that starts with whitespace: it continues the field line before it, as
// one space and its own bytes (RFC 9112 5.2 asks this of a user agent, and both net/http and
// fasthttp do it). Right after the status line there is no field line to continue, and RFC
// 9112 2.2 lets a recipient refuse the answer, as net/http does. A line of whitespace alone
// still adds its space, as the goroutine engine (fasthttp) reads it: "Content-Length: 2" and
// then " " is no number to either engine.
func (a *h1Answer) fold(line []byte) error {
	if !a.fielded {
		return errH1Fold
	}
	more, err := h1FieldValue(line)
	if err != nil {
		return err
	}
	switch a.field {
	case h1Connection, h1ContentLength, h1TransferEncoding, h1Trailer:
		a.pend = h1Join(a.pend, more)
	case h1ContentType:
		a.ctype = h1Join(a.ctype, more)
	case h1ContentEncoding:
		a.cenc = h1Join(a.cenc, more)
	}
	return nil
}

// h1Join appends more to a field's value, a space between them (none before a value's first
// bytes). more is without whitespace around it; what it returns ends in a space when more is
// empty.
func h1Join(value, more []byte) []byte {
	if len(value) > 0 {
		value = append(value, ' ')
	}
	return append(value, more...)
}

// endField reads the field line before, with its folded lines: the next line is not one of
// them.
func (a *h1Answer) endField() error {
	field, value := a.field, a.pend
	a.field = h1Other
	switch field {
	case h1Connection:
		// As the goroutine engine (fasthttp) reads them: close in any Connection field, the
		// others in the first one that says more than close, which fasthttp keeps and reads.
		closing, other, keep, upgrade := false, false, false, false
		for list := value; len(list) > 0; {
			var elem []byte
			elem, list = h1NextElem(list)
			closing = closing || h1EqualFold(elem, "close")
			other = other || len(elem) > 0 && !h1EqualFold(elem, "close")
			keep = keep || h1EqualFold(elem, "keep-alive")
			upgrade = upgrade || h1EqualFold(elem, "upgrade")
		}
		a.closing = a.closing || closing
		if !a.conned && (other || !closing) {
			a.conned, a.keep, a.upgrade = true, keep, upgrade
		}
	case h1ContentLength:
		return a.contentLength(value)
	case h1Trailer:
		return h1TrailerNames(value)
	case h1TransferEncoding:
		// As the goroutine engine (fasthttp) reads it, stricter than RFC 9112: one field, which
		// says chunked, and ignored outside HTTP/1.1 (as RFC 9112 6.1 lets a client do in
		// HTTP/1.0).
		switch {
		case a.http10:
		case a.chunked || !h1EqualFold(value, "chunked"):
			return errH1TE
		default:
			a.chunked = true
		}
	}
	return nil
}

// statusLine reads a status line as the goroutine engine (fasthttp) does, so that both give a
// server the same verdict: "HTTP/d.d", spaces, a 3-digit code, and the line's end or a space
// and a reason, which is not read. Empty lines before it are skipped. RFC 9112 4 asks for one
// space and no CR in the reason. An answer from any version but HTTP/1.1 is read as HTTP/1.0's
// (http10: the connection closes unless the answer says keep-alive), as fasthttp reads it.
func (a *h1Answer) statusLine(line []byte) error {
	if len(line) == 0 {
		return nil
	}
	status, err := h1StatusCode(line)
	if err != nil {
		return err
	}
	if status < 100 {
		return errH1StatusBelow
	}
	a.status, a.http10, a.state = status, line[5] != '1' || line[7] != '1', h1Fields
	return nil
}

// h1StatusCode reads the status code of a status line, without its line end, as fasthttp
// reads it: "HTTP/d.d", spaces, three digits, then the line's end or a space.
func h1StatusCode(line []byte) (int, error) {
	if len(line) >= len("HTTP/1.1 200") && string(line[:len("HTTP/1.1 ")]) == "HTTP/1.1 " &&
		allDigits(string(line[len("HTTP/1.1 "):len("HTTP/1.1 200")])) && (len(line) == len("HTTP/1.1 200") || line[len("HTTP/1.1 200")] == ' ') {
		// An HTTP/1.1 status line with one space before its code, as nearly all are.
		code := line[len("HTTP/1.1 "):]
		return int(code[0]-'0')*100 + int(code[1]-'0')*10 + int(code[2]-'0'), nil
	}
	if bytes.IndexByte(line, ' ') != len("HTTP/d.d") || string(line[:5]) != "HTTP/" || line[6] != '.' ||
		line[5] < '0' || line[5] > '9' || line[7] < '0' || line[7] > '9' {
		return 0, errH1Version
	}
	code := bytes.TrimLeft(line[len("HTTP/d.d"):], " ")
	if i := bytes.IndexByte(code, ' '); i >= 0 {
		code = code[:i]
	}
	if len(code) != 3 {
		return 0, errH1StatusLine
	}
	status := 0
	for _, c := range code {
		if c < '0' || c > '9' {
			return 0, errH1StatusLine
		}
		status = status*10 + int(c-'0')
	}
	return status, nil
}

// endHead takes the blank line that ends a head, and sets how the body is delimited (RFC 9112
// 6.3). An informational answer has no body: the next head follows at once.
func (a *h1Answer) endHead() error {
	if a.status < 200 && a.status != 101 {
		if a.interim++; a.interim > maxInterim {
			return errTooManyInterim
		}
		a.state, a.used, a.length = h1Status, 0, -1
		a.chunked, a.closing, a.keep, a.upgrade, a.conned, a.fielded = false, false, false, false, false, false
		a.ctype, a.cenc = a.ctype[:0], a.cenc[:0]
		return nil
	}
	if err := a.frame(); err != nil {
		return err
	}
	if a.headed = true; a.keepFor != nil {
		a.keepMax = a.keepFor()
	}
	return nil
}

// frame reads how the body of a final head ends.
func (a *h1Answer) frame() error {
	a.close = a.closing || a.http10 && !a.keep
	switch {
	case a.status == 101:
		a.close = true // the connection now speaks another protocol
		a.state = h1Done
	case a.head || a.status == 204 || a.status == 304:
		a.state = h1Done
		// The goroutine engine (fasthttp) takes an answer that gives no length as one read to
		// the close, and does not use its connection again (unless it says upgrade), even
		// where it has no body: after a HEAD, so does this (a 204 or 304 needs no length).
		a.close = a.close || a.head && a.status != 204 && a.status != 304 && a.length < 0 && !a.chunked &&
			(!a.upgrade || a.closing)
	case a.chunked:
		a.startChunk()
	case a.length < 0:
		a.close, a.state = true, h1ToClose
	case a.length == 0:
		a.state = h1Done
	default:
		a.state, a.left = h1Length, a.length
	}
	return nil
}

// contentLength reads a Content-Length value: a number, in one field. RFC 9110 8.6 would let a
// list of one length repeated, or several fields of one length, stand for that length; the
// goroutine engine (fasthttp) refuses both, and so does this, so that the engines give a
// server the same verdict.
func (a *h1Answer) contentLength(value []byte) error {
	if a.length >= 0 {
		return errH1Lengths
	}
	if len(value) == 0 {
		return errH1Length
	}
	var n int64
	for _, c := range value {
		d := int64(c - '0')
		if c < '0' || c > '9' || n > (h1MaxLength-d)/10 {
			return errH1Length
		}
		n = n*10 + d
	}
	a.length = n
	return nil
}

// chunkByte takes a byte of a chunk line or of the CRLF after a chunk's data. It reads them
// as the goroutine engine (fasthttp) does, so that both give a server the same verdict: the
// chunk size, then extensions (";" and anything up to the CR) or whitespace, and CRLF. RFC
// 9112 7.1 would also let whitespace come before the extensions and a bare LF end the line;
// net/http takes neither.
func (a *h1Answer) chunkByte(c byte) error {
	if a.used++; a.used > h1MaxChunkLine {
		return errH1ChunkSize
	}
	switch a.state {
	case h1Size:
		if v := h1Unhex(c); v >= 0 {
			if a.digits == 15 {
				return errH1ChunkSize
			}
			a.left, a.digits = a.left<<4|int64(v), a.digits+1
			return nil
		}
		if a.digits == 0 {
			return errH1ChunkSize
		}
		a.state = h1SizeEnd
		fallthrough // c is the first byte after the size
	case h1SizeEnd, h1SizeWS:
		switch {
		case c == ' ' || c == '\t':
			a.state = h1SizeWS
		case c == ';' && a.state == h1SizeEnd:
			a.state = h1Ext
		case c == '\r':
			a.state = h1SizeLF
		default:
			return errH1ChunkSize
		}
	case h1Ext:
		switch c {
		case '\r':
			a.state = h1SizeLF
		case '\n':
			return errH1ChunkSize
		}
	case h1SizeLF:
		if c != '\n' {
			return errH1ChunkSize
		}
		a.endChunkLine()
	case h1ChunkCR:
		if c != '\r' {
			return errH1ChunkEnd
		}
		a.state = h1ChunkLF
	case h1ChunkLF:
		if c != '\n' {
			return errH1ChunkEnd
		}
		a.startChunk()
	}
	return nil
}

// startChunk starts reading a chunk line.
func (a *h1Answer) startChunk() {
	a.state, a.used, a.left, a.digits = h1Size, 0, 0, 0
}

// endChunkLine starts a chunk's data, or the trailers after the last chunk.
func (a *h1Answer) endChunkLine() {
	a.used = 0
	if a.left == 0 {
		a.state, a.fielded = h1Trailers, false
		return
	}
	a.state = h1Chunk
}

// h1FieldLine splits a header or trailer line into its name, a token, and its value without
// the whitespace around it. The line does not start with whitespace (see fold). RFC 9112 5.1
// allows no whitespace in the name nor before the colon; the goroutine engine (fasthttp) takes
// spaces there, drops those before the colon, and closes the connection after an answer with
// a space inside a name (spaced), and so does this, so that both give a server the same
// verdict.
func h1FieldLine(line []byte) (name, value []byte, spaced bool, err error) {
	colon, space := 0, false
scan:
	for ; colon < len(line); colon++ {
		switch c := line[colon]; {
		case h1TokenByte(c):
			spaced = spaced || space
		case c == ':':
			break scan
		case c == ' ':
			space = true
		default:
			return nil, nil, false, errH1FieldLine
		}
	}
	if colon == 0 || colon == len(line) {
		return nil, nil, false, errH1FieldLine
	}
	if value, err = h1FieldValue(line[colon+1:]); err != nil {
		return nil, nil, false, err
	}
	if name = line[:colon]; space {
		name = bytes.TrimRight(name, " ")
	}
	return name, value, spaced, nil
}

// h1FieldValue checks the bytes of a field's value, or of a line that continues it, and
// returns them without the whitespace around them.
func h1FieldValue(value []byte) ([]byte, error) {
	for _, c := range value {
		if h1Bytes[c]&h1NotInValue != 0 {
			if c == '\r' {
				return nil, errH1BareCR
			}
			return nil, errH1FieldLine // a NUL or another control byte, refused by fasthttp too
		}
	}
	return h1TrimOWS(value), nil
}

// h1NextElem splits the first element off a comma-separated list, without the whitespace
// around it; it may be empty.
func h1NextElem(list []byte) (elem, rest []byte) {
	if i := bytes.IndexByte(list, ','); i >= 0 {
		return h1TrimOWS(list[:i]), list[i+1:]
	}
	return h1TrimOWS(list), nil
}

// h1TrimOWS drops the spaces and tabs around b.
func h1TrimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// h1EqualFold tells whether b is lower, ignoring the case of ASCII letters; lower is lowercase.
func h1EqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// h1TokenByte tells whether c may be in a token, as field names are (RFC 9110 5.6.2).
func h1TokenByte(c byte) bool { return h1Bytes[c]&h1Tok != 0 }

// h1Bytes tells what each byte may be in a head: the field lines' bytes are read one by one,
// on every answer, and one look in a table costs less than the comparisons it stands for. It
// is made once and only read.
var h1Bytes = h1ByteKinds()

const (
	h1Tok        = 1 << iota // may be in a token (RFC 9110 5.6.2)
	h1NotInValue             // may not be in a field value: a control byte but tab, or DEL
)

func h1ByteKinds() (kinds [256]uint8) {
	for i := range kinds {
		c := byte(i)
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-',
			strings.IndexByte("!#$%&'*+.^_`|~", c) >= 0:
			kinds[i] = h1Tok
		case c < ' ' && c != '\t' || c == 0x7f:
			kinds[i] = h1NotInValue
		}
	}
	return kinds
}

// h1Unhex is the value of the hex digit c, or -1.
func h1Unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// headDone tells whether the final head was whole: an answer that failed after it keeps its
// status.
func (a *h1Answer) headDone() bool { return a.headed }

// keepBody keeps body bytes up to keepMax, and as far as the budget goes.
func (a *h1Answer) keepBody(p []byte) {
	if room := a.keepMax - len(a.kept); len(p) > room {
		p, a.keptAll = p[:room], false
	}
	if a.budget != nil && len(p) > *a.budget {
		p, a.keptAll, a.starved = p[:max(*a.budget, 0)], false, true
	}
	if a.budget != nil {
		*a.budget -= len(p)
	}
	a.kept = append(a.kept, p...)
}

// h1TrailerNames checks the names a Trailer field announces as the goroutine engine (fasthttp)
// does, which refuses the whole answer for one of them that is empty, not a token, or a field
// that cannot be a trailer: "Trailer: Content-Length" or "Trailer: a,,b". A comma at the end
// is taken. RFC 9110 6.6.2 has the field list names alone; net/http refuses only framing ones,
// and only for a chunked answer, but both engines must give a server the same verdict.
func h1TrailerNames(list []byte) error {
	for i := -1; i+1 < len(list); {
		list = list[i+1:]
		if i = bytes.IndexByte(list, ','); i < 0 {
			i = len(list)
		}
		if name := h1TrimOWS(list[:i]); !h1Token(name) || h1NotTrailer(name) {
			return errH1Trailer
		}
	}
	return nil
}

// h1Token tells whether b is a token (RFC 9110 5.6.2): one or more token bytes.
func h1Token(b []byte) bool {
	for _, c := range b {
		if !h1TokenByte(c) {
			return false
		}
	}
	return len(b) > 0
}

// h1NotTrailer tells whether the field name cannot be a trailer to the goroutine engine
// (fasthttp), which refuses an answer whose trailers or Trailer field hold one: the fields
// RFC 9110 6.5.1 keeps out of trailers (framing, routing, authentication, controls, how to
// process the content), and fasthttp's own additions, cookies, Location and the names that
// start with X-Forwarded or X-Real-IP.
func h1NotTrailer(name []byte) bool {
	for _, not := range [...]string{"authorization", "connection", "content-encoding", "content-length",
		"content-range", "content-type", "cookie", "expect", "host", "keep-alive", "location",
		"max-forwards", "proxy-authenticate", "proxy-authorization", "proxy-connection", "range",
		"set-cookie", "te", "trailer", "transfer-encoding", "www-authenticate"} {
		if h1EqualFold(name, not) {
			return true
		}
	}
	return len(name) >= len("x-forwarded") && h1EqualFold(name[:len("x-forwarded")], "x-forwarded") ||
		len(name) >= len("x-real-ip") && h1EqualFold(name[:len("x-real-ip")], "x-real-ip")
}
