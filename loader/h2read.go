package loader

import (
	"errors"
	"fmt"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// The connection's reader: what the server's frames do to the connection and its streams.

// h2HeaderBlock is a header block being decoded, which may span CONTINUATION frames.
type h2HeaderBlock struct {
	stream    uint32
	endStream bool
	fields    []hpack.HeaderField
	size      int  // as RFC 9113 counts a header list
	encoded   int  // the block's bytes so far, as they came
	tooLarge  bool // past the header list's bound: the rest of the block is decoded and dropped
	keep      bool // the block's stream is one this client waits on
	// id names the block's fields as the decoder gave them (see hpackReader.block): two
	// blocks of one id have the same fields. 0 for fields without a name.
	id uint64
}

// h2HeadChecks is what headerBlock concluded from the fields of the final answer's head
// whose decoder id is id: the same fields lead to the same conclusions, so an answer that
// repeats the last head is not checked again.
type h2HeadChecks struct {
	id     uint64
	err    error // checkHead's
	status int   // h2Status's
	text   string
	ok     bool
	head   *h2Head // the head laid out, made when it first repeats; nil for a head in fault
}

// h2HeadersTooLarge is an answer whose header list is longer than the client takes.
type h2HeadersTooLarge struct{ limit uint32 }

func (e h2HeadersTooLarge) Error() string {
	if e.limit%(1<<20) == 0 {
		return fmt.Sprintf("http2: response headers longer than %d MB", e.limit>>20)
	}
	return fmt.Sprintf("http2: response headers longer than %d bytes", e.limit)
}

// errH2GoAwayRetry is a request on a stream above the last one a server's GOAWAY says it
// processed: it goes out again on another connection.
var errH2GoAwayRetry = errors.New("http2: server sent GOAWAY before the request's stream")

// errH2HPACK is a header block that does not decode: the decoder's table may now differ from
// the server's, so the connection cannot go on.
var errH2HPACK = h2ProtocolError{code: http2.ErrCodeCompression, what: "a header block that does not decode (HPACK)"}

// errH2RefusedRetry is a stream the server reset with REFUSED_STREAM: the request goes out
// again, after a back-off from the second time on.
var errH2RefusedRetry = errors.New("http2: server refused the stream (REFUSED_STREAM)")

// h2StreamReset is a stream the server reset with a code other than REFUSED_STREAM.
type h2StreamReset struct{ code http2.ErrCode }

func (e h2StreamReset) Error() string {
	return fmt.Sprintf("http2: server reset the request's stream (%v)", e.code)
}

// settings applies the server's SETTINGS and acknowledges them.
func (c *h2Conn) settings(sf *http2.SettingsFrame) error {
	var table uint32
	tableSet := false
	c.mu.Lock()
	err := sf.ForeachSetting(func(s http2.Setting) error {
		if err := s.Valid(); err != nil {
			// A MAX_FRAME_SIZE of 0 would have the request's head written in empty frames
			// for ever.
			var ce http2.ConnectionError
			errors.As(err, &ce)
			return h2ProtocolError{code: http2.ErrCode(ce), what: fmt.Sprintf("SETTINGS_%v of %d is out of range", s.ID, s.Val)}
		}
		switch s.ID {
		case http2.SettingMaxConcurrentStreams:
			c.maxStreams = min(s.Val, h2DefaultMaxStreams)
		case http2.SettingMaxFrameSize:
			c.maxFrame = s.Val
		case http2.SettingInitialWindowSize:
			// Open streams' windows move by the change (RFC 9113 6.9.2).
			delta := int64(s.Val) - int64(c.initWindow)
			c.initWindow = int32(s.Val)
			for _, st := range c.streams {
				if int64(st.sendWindow)+delta > h2MaxWindow {
					return h2ProtocolError{code: http2.ErrCodeFlowControl, what: "SETTINGS_INITIAL_WINDOW_SIZE takes a stream's send window past 2^31-1"}
				}
				st.sendWindow += int32(delta)
			}
			c.wakeSenders()
		case http2.SettingHeaderTableSize:
			table, tableSet = s.Val, true
		}
		return nil
	})
	c.mu.Unlock()
	if err != nil {
		return err
	}
	// Under the write lock only: requests take it before mu, so the reader never takes it
	// while holding mu.
	return c.write(func() error {
		if tableSet {
			c.enc.SetMaxDynamicTableSizeLimit(table)
			c.headIndexed = false // the next block starts with the table's new size
		}
		return c.fr.WriteSettingsAck()
	})
}

// readLoop reads the server's frames until the connection ends, then fails the streams left.
func (c *h2Conn) readLoop() {
	for {
		f, err := c.fr.ReadFrame()
		if err == nil {
			err = c.frame(f)
		} else {
			var se http2.StreamError
			if errors.As(err, &se) {
				// A frame the framer finds bad for one stream only: that stream fails.
				c.resetStream(se.StreamID, se.Code, fmt.Errorf("http2: bad frame from the server: %w", se))
				continue
			}
		}
		if err != nil {
			err = c.protocolError(err)
			var pe h2ProtocolError
			if errors.As(err, &pe) {
				_ = c.write(func() error { return c.fr.WriteGoAway(0, pe.code, nil) })
			}
			c.fail(err)
			return
		}
	}
}

// frame handles one frame from the server.
func (c *h2Conn) frame(f http2.Frame) error {
	// The framer fails a header block that other frames interrupt (RFC 9113 6.10).
	switch f := f.(type) {
	case *http2.DataFrame:
		return c.data(f)
	case *http2.HeadersFrame:
		c.startBlock(f.StreamID, f.StreamEnded())
		return c.headerFragment(f.HeaderBlockFragment(), f.HeadersEnded())
	case *http2.ContinuationFrame:
		return c.headerFragment(f.HeaderBlockFragment(), f.HeadersEnded())
	case *http2.RSTStreamFrame:
		var err error = h2StreamReset{code: f.ErrCode}
		if f.ErrCode == http2.ErrCodeRefusedStream {
			err = errH2RefusedRetry
		}
		if c.endStream(f.StreamID, err) {
			// Only resets of the client's streams count: a flood of them for others is no
			// sign of a server shedding load.
			c.stats.h2Resets.Add(1)
		}
	case *http2.SettingsFrame:
		if !f.IsAck() {
			return c.settings(f)
		}
	case *http2.PingFrame:
		if !f.IsAck() {
			data := f.Data
			return c.write(func() error { return c.fr.WritePing(true, data) })
		}
	case *http2.GoAwayFrame:
		c.goneAway(f.LastStreamID, f.ErrCode)
	case *http2.WindowUpdateFrame:
		return c.windowUpdate(f.StreamID, f.Increment)
	case *http2.PushPromiseFrame:
		return h2ProtocolError{code: http2.ErrCodeProtocol, what: "PUSH_PROMISE, though the client's settings disabled push"}
	}
	return nil
}

// data takes a DATA frame's payload into its stream's body.
func (c *h2Conn) data(f *http2.DataFrame) error {
	credit := uint32(0)
	c.mu.Lock()
	c.recvCredit += f.Length
	if c.recvCredit >= h2ConnCredit {
		credit, c.recvCredit = c.recvCredit, 0
	}
	st := c.streams[f.StreamID]
	switch {
	case st == nil: // a stream this client reset or finished: its data only counts for the connection
	case st.ended: // after END_STREAM: not the answer's, however late its body is read
	case !st.headers:
		st.fail(errors.New("http2: the server sent body data before the answer's headers"))
		c.resetLocked(st, http2.ErrCodeProtocol)
	case st.unreturned+int64(f.Length) > h2StreamWindow:
		st.fail(errors.New("http2: the server sent more than the stream's flow-control window"))
		c.resetLocked(st, http2.ErrCodeFlowControl)
	default:
		st.unreturned += int64(f.Length)
		st.buf = append(st.buf, f.Data()...)
		st.recvPadding += f.Length - uint32(len(f.Data()))
		if f.StreamEnded() {
			st.ended = true
		}
		if st.ended || len(st.buf)-st.off >= h2WakeBytes {
			st.signal()
		}
	}
	c.mu.Unlock()
	if credit > 0 {
		return c.write(func() error { return c.fr.WriteWindowUpdate(0, credit) })
	}
	return nil
}

// startBlock begins a header block for stream.
func (c *h2Conn) startBlock(stream uint32, endStream bool) {
	c.hd.stream, c.hd.endStream = stream, endStream
	c.hd.fields, c.hd.size, c.hd.encoded, c.hd.tooLarge, c.hd.id = c.hd.fields[:0], 0, 0, false, 0
	c.mu.Lock()
	c.hd.keep = c.streams[stream] != nil
	c.mu.Unlock()
	c.dec.SetEmitEnabled(c.hd.keep)
}

// headerFragment decodes a fragment of the current header block; at its end the block goes
// to its stream. Blocks of streams nobody waits on are decoded all the same, as they change
// the decoder's table.
func (c *h2Conn) headerFragment(frag []byte, end bool) error {
	// A block twice as long as the header list's bound is a flood (CONTINUATION frames
	// without end, or fields that decode to nothing, such as table size updates): the
	// connection ends, as decoding it to the end would take as long as the server goes on.
	c.hd.encoded += len(frag)
	if c.hd.encoded > 2*int(c.maxList) {
		c.mu.Lock()
		if st := c.streams[c.hd.stream]; st != nil {
			st.fail(h2HeadersTooLarge{limit: c.maxList})
		}
		c.mu.Unlock()
		return h2ProtocolError{code: http2.ErrCodeProtocol, what: fmt.Sprintf("a header block longer than %d bytes", 2*int(c.maxList))}
	}
	if end && c.hd.encoded == len(frag) { // the whole block in one frame, as most come
		id, err := c.dec.block(frag)
		if err != nil {
			return errH2HPACK
		}
		c.hd.id = id
	} else {
		if err := c.dec.Write(frag); err != nil {
			return errH2HPACK
		}
		if !end {
			return nil
		}
		if err := c.dec.Close(); err != nil {
			return errH2HPACK
		}
	}
	if c.hd.keep {
		c.headerBlock()
	}
	return nil
}

// emit is the decoder's: it keeps the current block's fields up to the header list's bound.
func (c *h2Conn) emit(f hpack.HeaderField) {
	c.hd.size += len(f.Name) + len(f.Value) + 32
	if c.hd.size > int(c.maxList) {
		c.hd.tooLarge = true
		c.dec.SetEmitEnabled(false)
		return
	}
	c.hd.fields = append(c.hd.fields, f)
}

// headerBlock gives a whole header block to its stream: informational answers are counted
// and dropped, the final answer's head wakes the request, and trailers are dropped.
func (c *h2Conn) headerBlock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.streams[c.hd.stream]
	if st == nil || st.ended { // an answer that ended takes no more heads
		return
	}
	if c.hd.tooLarge {
		st.fail(h2HeadersTooLarge{limit: c.maxList})
		c.resetLocked(st, http2.ErrCodeCancel)
		return
	}
	var checks h2HeadChecks
	switch {
	case !st.headers && c.hd.id != 0 && c.hd.id == c.checked.id:
		if c.checked.head == nil && c.checked.err == nil && c.checked.ok {
			c.checked.head = newH2Head(c.checked.status, c.hd.fields)
		}
		checks = c.checked
	case !st.headers:
		checks.err = checkHead(c.hd.fields, false)
		checks.status, checks.text, checks.ok = h2Status(c.hd.fields)
		if c.hd.id != 0 {
			checks.id = c.hd.id
			c.checked = checks
		}
	default:
		checks.err = checkHead(c.hd.fields, true)
	}
	err := checks.err
	if err == nil && st.headers && !c.hd.endStream {
		err = h2BadHead{"trailers that do not end the stream"}
	}
	if err != nil {
		st.fail(err)
		c.resetLocked(st, http2.ErrCodeProtocol)
		return
	}
	if st.headers { // trailers: checked, and not kept
		st.ended = true
		st.signal()
		return
	}
	status, text, ok := checks.status, checks.text, checks.ok
	switch {
	case !ok:
		st.fail(errH2BadStatus)
		c.resetLocked(st, http2.ErrCodeProtocol)
	case status == 101: // HTTP/2 switches no protocol (RFC 9113 8.6): no final answer follows
		st.fail(h2BadHead{"a 101, which HTTP/2 forbids"})
		c.resetLocked(st, http2.ErrCodeProtocol)
	case status >= 100 && status < 200 && c.hd.endStream:
		st.fail(h2BadHead{"an informational answer that ends the stream"})
		c.resetLocked(st, http2.ErrCodeProtocol)
	case status >= 100 && status < 200:
		if st.interim++; st.interim > maxInterim {
			st.fail(errTooManyInterim)
			c.resetLocked(st, http2.ErrCodeCancel)
		}
	default:
		st.headers, st.status, st.statusText = true, status, text
		st.fields = append(st.fields[:0], c.hd.fields...)
		st.head = checks.head
		st.ended = c.hd.endStream
		if st.ended {
			st.signal() // otherwise the body wakes it (h2WakeBytes)
		}
	}
}

// windowUpdate grows a send window: the connection's (stream 0) or a stream's. A window
// grown past 2^31-1 fails the connection or the stream (RFC 9113 6.9.1): taken as it is, it
// would wrap round to a negative window and stall the request body until the timeout.
func (c *h2Conn) windowUpdate(stream, incr uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if stream == 0 {
		if int64(c.sendWindow)+int64(incr) > h2MaxWindow {
			return h2ProtocolError{code: http2.ErrCodeFlowControl, what: "WINDOW_UPDATE takes the connection's send window past 2^31-1"}
		}
		c.sendWindow += int32(incr)
	} else if st := c.streams[stream]; st != nil {
		if int64(st.sendWindow)+int64(incr) > h2MaxWindow {
			st.fail(errH2StreamWindow)
			c.resetLocked(st, http2.ErrCodeFlowControl)
			return nil
		}
		st.sendWindow += int32(incr)
	}
	c.wakeSenders()
	return nil
}

// errH2StreamWindow is a stream whose send window the server grew past 2^31-1.
var errH2StreamWindow = errors.New("http2: the server's WINDOW_UPDATE takes the stream's send window past 2^31-1")

// wakeSenders wakes the requests waiting for a send window to grow; c.mu is held.
func (c *h2Conn) wakeSenders() {
	if c.flowWait != nil {
		close(c.flowWait)
		c.flowWait = nil
	}
}

// goneAway takes the server's GOAWAY: no new streams, and those above lastStream go out again
// on another connection, as the server says it did not process them.
func (c *h2Conn) goneAway(lastStream uint32, code http2.ErrCode) {
	c.mu.Lock()
	if !c.goAway {
		// One per connection: servers that shut down gracefully send two (RFC 9113 6.8),
		// and a hostile one may send any number.
		c.stats.h2GoAways.Add(1)
	}
	c.goAway, c.goAwayCode, c.lastStream = true, code, lastStream
	for id, st := range c.streams {
		if id > lastStream {
			st.fail(errH2GoAwayRetry)
			c.removeLocked(st)
		}
	}
	idle := c.active == 0
	c.mu.Unlock()
	if idle {
		c.conn.Close() // the reader then ends the connection
	}
}

// endStream ends stream id with err (RST_STREAM from the server), and tells whether it was
// one of the client's open streams. A stream whose answer came whole ends as it was: servers
// reset the streams of answers they gave before reading the whole request body (RFC 9113 8.1).
func (c *h2Conn) endStream(id uint32, err error) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.streams[id]
	if st != nil {
		if !st.ended {
			st.fail(err)
		}
		c.removeLocked(st)
	}
	return st != nil
}

// resetStream ends stream id with err and resets it with code.
func (c *h2Conn) resetStream(id uint32, code http2.ErrCode, err error) {
	c.mu.Lock()
	st := c.streams[id]
	if st != nil {
		st.fail(err)
		c.removeLocked(st)
	}
	c.mu.Unlock()
	_ = c.write(func() error { return c.fr.WriteRSTStream(id, code) })
}

// resetLocked resets st, which failed, from the reader (c.mu held): the RST_STREAM is written
// by a goroutine of its own, as the reader must not wait on the write lock while holding mu.
func (c *h2Conn) resetLocked(st *h2Stream, code http2.ErrCode) {
	id := st.id
	c.removeLocked(st)
	go func() { _ = c.write(func() error { return c.fr.WriteRSTStream(id, code) }) }()
}

// removeLocked takes st out of the connection's streams: frames for it are dropped from now
// on. The stream still counts as active until its request releases it.
func (c *h2Conn) removeLocked(st *h2Stream) {
	if c.streams[st.id] == st {
		delete(c.streams, st.id)
	}
}
