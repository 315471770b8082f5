package loader

import (
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// errH2BadStatus is an answer whose :status is missing or not a number.
var errH2BadStatus = errors.New("http2: cannot parse the answer's :status")

// errH2BodyCut is an answer without Content-Length whose connection closed inside its body: a
// bad response, as HTTP/2 ends a body with END_STREAM, never by closing.
var errH2BodyCut error = h2BodyCut{}

type h2BodyCut struct{}

func (h2BodyCut) Error() string { return "http2: the connection closed inside the answer's body" }
func (h2BodyCut) Unwrap() error { return io.ErrUnexpectedEOF }

// h2BodyLength is an answer whose body is not as long as its Content-Length says: a bad
// response, as a short body is over HTTP/1.1.
type h2BodyLength struct{ got, want int64 }

func (e h2BodyLength) Error() string {
	return fmt.Sprintf("http2: a body of %d bytes where Content-Length says %d", e.got, e.want)
}
func (e h2BodyLength) Unwrap() error { return io.ErrUnexpectedEOF }

// h2Stream is one request's exchange on an h2Conn: what the reader received for it, and the
// clock of its timeout. Streams are pooled with their buffers, channel and timer; a stream
// is the reader's to fill only while it is in its connection's streams, under c.mu.
type h2Stream struct {
	c     *h2Conn
	id    uint32
	wake  chan struct{} // the reader's signal that something came (capacity 1)
	timer *time.Timer   // fires at the request's deadline
	late  bool          // the timer fired: every wait ends at once
	// length is the body's length as the answer's Content-Length declares it, -1 when it
	// declares none or the answer has no body (HEAD, 204, 304); got counts what was read.
	length, got int64

	// Under c.mu.
	headers     bool // the final answer's head came
	ended       bool // END_STREAM came: buf holds the rest of the body
	err         error
	status      int
	statusText  string
	fields      []hpack.HeaderField // the final head's fields, pseudo-fields included
	head        *h2Head             // the same, laid out, when the head repeats an earlier one
	interim     int
	buf         []byte
	off         int
	sendWindow  int32
	unacked     uint32 // body bytes read and not yet given back to the server's window
	recvPadding uint32 // padding received, given back with the next window update
	// unreturned is what the server sent of the stream's window and was not given back:
	// more than h2StreamWindow breaks flow control.
	unreturned int64
}

// signal wakes the request waiting on the stream; c.mu is held.
func (s *h2Stream) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// fail ends the stream with err unless it already failed; c.mu is held.
func (s *h2Stream) fail(err error) {
	if s.err == nil {
		s.err = err
	}
	s.signal()
}

// wait blocks until the reader signals the stream or the request's time is up.
func (s *h2Stream) wait() error {
	if s.late {
		return errH2Timeout
	}
	select {
	case <-s.wake:
		return nil
	case <-s.timer.C:
		s.late = true
		return errH2Timeout
	}
}

// awaitHead waits for the final answer's head, which the reader tells once the answer ended
// or its body reached h2WakeBytes.
func (s *h2Stream) awaitHead() error {
	c := s.c
	for {
		c.mu.Lock()
		headers, err := s.headers, s.err
		c.mu.Unlock()
		switch {
		case headers:
			return nil
		case err != nil:
			return err
		}
		if err := s.wait(); err != nil {
			c.mu.Lock()
			headers := s.headers
			c.mu.Unlock()
			if headers {
				// The head came and the body did not end in time: the body's read meets the
				// timeout, as it did when the head woke the request.
				return nil
			}
			return err
		}
	}
}

// read reads the body, giving the window back to the server as it goes.
func (s *h2Stream) read(p []byte) (int, error) {
	c := s.c
	for {
		if s.length >= 0 && s.got > s.length {
			// Longer than its Content-Length already: a bad response, whether or not the
			// server ever ends it.
			return 0, h2BodyLength{got: s.got, want: s.length}
		}
		c.mu.Lock()
		if s.off < len(s.buf) {
			n := copy(p, s.buf[s.off:])
			s.off += n
			s.got += int64(n)
			if s.off == len(s.buf) {
				s.buf, s.off = s.buf[:0], 0
			}
			var credit uint32
			if !s.ended && s.err == nil {
				s.unacked += uint32(n)
				if s.unacked >= h2StreamCredit {
					credit, s.unacked = s.unacked+s.recvPadding, 0
					s.recvPadding = 0
					s.unreturned -= int64(credit)
				}
			}
			c.mu.Unlock()
			if credit > 0 {
				id := s.id
				if err := c.write(func() error { return c.fr.WriteWindowUpdate(id, credit) }); err != nil {
					c.conn.Close() // the reader ends the connection and its streams
				}
			}
			return n, nil
		}
		err, ended := s.err, s.ended
		c.mu.Unlock()
		switch {
		case ended && s.length >= 0 && s.got != s.length:
			return 0, h2BodyLength{got: s.got, want: s.length}
		case ended:
			return 0, io.EOF
		case errors.Is(err, fasthttp.ErrConnectionClosed) && s.length >= 0:
			// The server closed the connection inside the body: a bad response, as a body
			// cut short is over HTTP/1.1, not a connection closed before the answer.
			return 0, h2BodyLength{got: s.got, want: s.length}
		case errors.Is(err, fasthttp.ErrConnectionClosed):
			return 0, errH2BodyCut
		case err != nil:
			return 0, err
		}
		if err := s.wait(); err != nil {
			return 0, err
		}
	}
}

// discardWhole drops the rest of the body when the answer ended without fault and its length
// is the one declared (see wholeBody): read would give those bytes and then io.EOF.
func (s *h2Stream) discardWhole(max int64) (int64, bool) {
	c := s.c
	c.mu.Lock()
	defer c.mu.Unlock()
	n := int64(len(s.buf) - s.off)
	if !s.ended || s.err != nil || (s.length >= 0 && s.got+n != s.length) || (max > 0 && s.got+n > max) {
		return 0, false
	}
	s.got += n
	s.buf, s.off = s.buf[:0], 0
	return n, true
}

// h2Status reads the :status of a header block: the number as sent, and whether there is one.
func h2Status(fields []hpack.HeaderField) (int, string, bool) {
	for _, f := range fields {
		if f.Name == ":status" {
			code, err := strconv.Atoi(f.Value)
			return code, f.Value, err == nil && len(f.Value) == 3
		}
	}
	return 0, "", false
}

// h2Body is an HTTP/2 answer's body as a fasthttp body stream. Closing it ends the stream
// (with RST_STREAM when it was not read to its end, leaving the connection to the others) and
// only then stops the request's clock. One goroutine reads and closes it; it is not pooled, as
// fasthttp may close it again when the response is reset.
type h2Body struct {
	client *h2Client
	s      *h2Stream // nil once closed
	// status is the answer's :status as it came, which the fasthttp response does not keep:
	// it reads a status of 0 as 200. checkStatus reads it.
	status int
}

func (b *h2Body) Read(p []byte) (int, error) {
	if b.s == nil {
		return 0, errors.New("http2: read of a closed body")
	}
	return b.s.read(p)
}

func (b *h2Body) discardWhole(max int64) (int64, bool) {
	if b.s == nil {
		return 0, false
	}
	return b.s.discardWhole(max)
}

func (b *h2Body) Close() error {
	if b.s == nil {
		return nil
	}
	s := b.s
	b.s = nil
	b.client.release(s)
	return nil
}

// wireHead returns the answer's head as it came: "HTTP/2.0", the :status as sent (HTTP/2 has
// no reason phrase) and the headers with their names in canonical form, sorted by name, as
// ProbeOnce shows them. It is valid until the body is closed.
func (b *h2Body) wireHead() string {
	if b.s == nil {
		return ""
	}
	type field struct{ name, value string }
	var fields []field
	for _, f := range b.s.fields {
		if !strings.HasPrefix(f.Name, ":") {
			fields = append(fields, field{textproto.CanonicalMIMEHeaderKey(f.Name), f.Value})
		}
	}
	slices.SortStableFunc(fields, func(a, b field) int { return strings.Compare(a.name, b.name) })
	var sb strings.Builder
	sb.WriteString("HTTP/2.0 " + b.s.statusText + "\r\n")
	for _, f := range fields {
		sb.WriteString(f.name + ": " + f.value + "\r\n")
	}
	sb.WriteString("\r\n")
	return sb.String()
}

// fillResponse puts the head of the stream's answer into resp, and body as its stream.
func fillResponse(resp *fasthttp.Response, s *h2Stream, body *h2Body, head bool) {
	resp.Reset()
	var size int
	if s.head != nil {
		s.head.header.CopyTo(&resp.Header)
		size = s.head.size
	} else {
		size = layHead(&resp.Header, s.status, s.fields)
	}
	s.length = int64(size)
	if head || s.status == 204 || s.status == 304 {
		s.length = -1
	}
	resp.SetBodyStream(body, size)
	if size < 0 {
		// SetBodyStream calls an unknown length chunked; HTTP/2 has no such thing.
		resp.Header.Del(fasthttp.HeaderTransferEncoding)
	}
}

var strHTTP20 = []byte("HTTP/2.0")

// layHead puts an answer's :status and fields into h, which was reset, and returns its
// Content-Length, -1 for none.
func layHead(h *fasthttp.ResponseHeader, status int, fields []hpack.HeaderField) int {
	h.SetStatusCode(status)
	// Unlike the request's, the response's SetProtocol leaves IsHTTP11 true, so the result is
	// not marked HTTP10. fasthttp renders this head with a reason phrase and its defaults
	// (Date, Content-Type), which ProbeOnce does not show: see h2Body.wireHead.
	h.SetProtocol(strHTTP20)
	size := -1
	for _, f := range fields {
		switch {
		case strings.HasPrefix(f.Name, ":"):
		case f.Name == "content-length":
			if n, err := strconv.Atoi(f.Value); err == nil && n >= 0 {
				size = n
			}
		default:
			h.Add(f.Name, f.Value) // Set-Cookie values land in h.Cookies()
		}
	}
	return size
}

// h2Head is a final answer's head laid out in a fasthttp header once, for a head that
// repeats: copying it into each response costs a fraction of laying out its fields again,
// which fasthttp does one by one, each name normalized and each value checked. It does not
// change once made, so the users of a connection copy it at once.
type h2Head struct {
	header fasthttp.ResponseHeader
	size   int // layHead's
}

func newH2Head(status int, fields []hpack.HeaderField) *h2Head {
	h := new(h2Head)
	h.size = layHead(&h.header, status, fields)
	return h
}

// rstCode is the reset a stream given up on gets: none when its answer ended.
func rstCode(s *h2Stream) (http2.ErrCode, bool) {
	if s.ended || s.err != nil {
		return 0, false
	}
	return http2.ErrCodeCancel, true
}
