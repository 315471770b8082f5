package loader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const (
	// h2StreamWindow is the flow-control window each response body gets (SETTINGS_INITIAL_
	// WINDOW_SIZE): the most a stream's unread body holds in memory. The window is given back
	// as the body is read, in steps of h2StreamCredit, so a large body keeps flowing.
	h2StreamWindow = 4 << 20
	h2StreamCredit = 1 << 20
	// h2ConnWindow is the connection's window, given back as data arrives (in steps of
	// h2ConnCredit), not as it is read: the streams' own windows bound what is held, and a
	// slow reader of one body must not stall the others.
	h2ConnWindow = 1 << 30
	h2ConnCredit = 16 << 20
	// h2MaxHeaderList bounds a response's header list (SETTINGS_MAX_HEADER_LIST_SIZE, names
	// and values plus 32 bytes per field, as RFC 9113 counts them): net/http's transport's
	// default, which Config.HTTP2 has always documented.
	h2MaxHeaderList = 10 << 20
	// h2DefaultMaxStreams is how many streams a connection takes when the server sets no limit.
	h2DefaultMaxStreams = 1000
	// h2MaxStreamID is the highest stream ID a client may open.
	h2MaxStreamID = 1<<31 - 1
)

// h2Conn is one HTTP/2 connection, whose streams carry the requests of many users at once.
// One goroutine (readLoop) reads every frame; requests write theirs under wmu.
type h2Conn struct {
	conn    net.Conn
	host    *h2Host // the pool the connection is in
	stats   *connStats
	timeout time.Duration // Config.Timeout: bounds the writes of the reader's own frames
	maxList uint32        // the bound on an answer's header list (h2MaxHeaderList)

	fr  *http2.Framer // reads on readLoop only; writes under wmu
	dec *hpack.Decoder
	hd  h2HeaderBlock // the header block being read; readLoop only

	wmu     sync.Mutex   // the write side: fr's writes, bw, enc, hbuf, intern, lower
	writers atomic.Int32 // writers holding or waiting for wmu (lockWrite)
	writeBy time.Time    // the socket's write deadline (armWrite)
	bw      *bufio.Writer
	enc     *hpack.Encoder
	hbuf    bytes.Buffer
	intern  map[string]string // header names and values sent, to give hpack strings without allocating
	lower   []byte

	mu         sync.Mutex
	streams    map[uint32]*h2Stream
	active     int    // streams reserved or open
	maxStreams uint32 // the server's SETTINGS_MAX_CONCURRENT_STREAMS
	maxFrame   uint32 // the server's SETTINGS_MAX_FRAME_SIZE, for DATA and header blocks
	nextID     uint32
	initWindow int32         // the server's SETTINGS_INITIAL_WINDOW_SIZE: new streams' send window
	sendWindow int32         // the connection's send window
	flowWait   chan struct{} // closed when a send window grows; nil when no one waits
	goAway     bool          // the server sent GOAWAY: no new streams
	goAwayCode http2.ErrCode
	lastStream uint32 // the GOAWAY's last stream ID: streams above it were not processed
	closing    bool   // closed by this client (idle)
	err        error  // why the connection ended; nil while it lives
	idleSince  time.Time
	idle       *time.Timer
	idleAfter  time.Duration
	recvCredit uint32 // bytes received on the connection and not yet given back
}

// h2HeaderBlock is a header block being decoded, which may span CONTINUATION frames.
type h2HeaderBlock struct {
	stream    uint32
	endStream bool
	fields    []hpack.HeaderField
	size      int  // as RFC 9113 counts a header list
	tooLarge  bool // past the header list's bound: the rest of the block is decoded and dropped
	keep      bool // the block's stream is one this client waits on
}

// h2HeadersTooLarge is an answer whose header list is longer than the client takes.
type h2HeadersTooLarge struct{ limit uint32 }

func (e h2HeadersTooLarge) Error() string {
	if e.limit%(1<<20) == 0 {
		return fmt.Sprintf("http2: response headers longer than %d MB", e.limit>>20)
	}
	return fmt.Sprintf("http2: response headers longer than %d bytes", e.limit)
}

// errH2Unusable is a request that found its connection ended before it was written: it goes
// out on another connection, as the server never saw it.
var errH2Unusable = errors.New("http2: connection ended before the request was sent")

// errH2GoAwayRetry is a request on a stream above the last one a server's GOAWAY says it
// processed: it goes out again on another connection.
var errH2GoAwayRetry = errors.New("http2: server sent GOAWAY before the request's stream")

// errH2RefusedRetry is a stream the server reset with REFUSED_STREAM: the request goes out
// again, after a back-off from the second time on.
var errH2RefusedRetry = errors.New("http2: server refused the stream (REFUSED_STREAM)")

// h2StreamReset is a stream the server reset with a code other than REFUSED_STREAM.
type h2StreamReset struct{ code http2.ErrCode }

func (e h2StreamReset) Error() string {
	return fmt.Sprintf("http2: server reset the request's stream (%v)", e.code)
}

// newH2Conn starts HTTP/2 on conn, whose TLS handshake (if any) agreed on h2: it sends the
// client's preface and settings and reads the server's settings, all before deadline, then
// starts the connection's reader. It closes conn when it fails.
func newH2Conn(conn net.Conn, host *h2Host, deadline time.Time) (*h2Conn, error) {
	client := host.client
	c := &h2Conn{
		conn: conn, host: host, stats: client.stats, timeout: client.timeout, maxList: client.maxHeaderList,
		bw:         bufio.NewWriterSize(conn, 32<<10),
		intern:     make(map[string]string),
		streams:    make(map[uint32]*h2Stream),
		maxStreams: h2DefaultMaxStreams,
		maxFrame:   16 << 10,
		nextID:     1,
		initWindow: 65535,
		sendWindow: 65535,
		idleSince:  time.Now(),
		idleAfter:  client.idle,
	}
	c.fr = http2.NewFramer(c.bw, bufio.NewReaderSize(conn, 32<<10))
	c.fr.SetReuseFrames()
	c.enc = hpack.NewEncoder(&c.hbuf)
	c.dec = hpack.NewDecoder(4096, c.emit)
	c.dec.SetMaxStringLength(int(c.maxList))
	if err := c.start(deadline); err != nil {
		conn.Close()
		return nil, fmt.Errorf("starting HTTP/2: %w", err)
	}
	c.idle = time.AfterFunc(c.idleAfter, c.closeIfIdle)
	go c.readLoop()
	return c, nil
}

// start exchanges the prefaces and settings: the server's first frame must be its SETTINGS,
// which tell how many streams the connection takes before any request is sent.
func (c *h2Conn) start(deadline time.Time) error {
	if err := c.conn.SetDeadline(deadline); err != nil {
		return err
	}
	if _, err := c.bw.WriteString(http2.ClientPreface); err != nil {
		return err
	}
	settings := []http2.Setting{
		{ID: http2.SettingEnablePush, Val: 0},
		{ID: http2.SettingInitialWindowSize, Val: h2StreamWindow},
		{ID: http2.SettingMaxHeaderListSize, Val: c.maxList},
	}
	if err := c.fr.WriteSettings(settings...); err != nil {
		return err
	}
	if err := c.fr.WriteWindowUpdate(0, h2ConnWindow-65535); err != nil {
		return err
	}
	if err := c.bw.Flush(); err != nil {
		return err
	}
	f, err := c.fr.ReadFrame()
	if err != nil {
		return fmt.Errorf("reading the server's settings: %w", err)
	}
	sf, ok := f.(*http2.SettingsFrame)
	if !ok || sf.IsAck() {
		return fmt.Errorf("the server's first frame is %v, not SETTINGS", f.Header().Type)
	}
	if err := c.settings(sf); err != nil {
		return err
	}
	return c.conn.SetDeadline(time.Time{})
}

// settings applies the server's SETTINGS and acknowledges them.
func (c *h2Conn) settings(sf *http2.SettingsFrame) error {
	var table uint32
	tableSet := false
	c.mu.Lock()
	err := sf.ForeachSetting(func(s http2.Setting) error {
		switch s.ID {
		case http2.SettingMaxConcurrentStreams:
			c.maxStreams = min(s.Val, h2DefaultMaxStreams)
		case http2.SettingMaxFrameSize:
			c.maxFrame = s.Val
		case http2.SettingInitialWindowSize:
			// Open streams' windows move by the change (RFC 9113 6.9.2).
			delta := int32(s.Val) - c.initWindow
			c.initWindow = int32(s.Val)
			for _, st := range c.streams {
				st.sendWindow += delta
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
		}
		return c.fr.WriteSettingsAck()
	})
}

// write writes frames of the connection's own (acknowledgements, window updates, resets)
// within Config.Timeout.
func (c *h2Conn) write(frames func() error) error {
	c.lockWrite()
	err := c.armWrite()
	if err == nil {
		err = frames()
	}
	return c.unlockWrite(err)
}

// armWrite bounds the writes to come by Config.Timeout; c.wmu is held. The bound is the
// connection's, not a request's: a request whose time ran out while it waited for the lock
// must not fail the write that carries other requests' frames too, and a server that reads
// nothing for that long has failed the connection. The deadline moves only when half of it
// is gone, which spares most requests the call.
func (c *h2Conn) armWrite() error {
	now := time.Now()
	if c.writeBy.Sub(now) > c.timeout/2 {
		return nil
	}
	c.writeBy = now.Add(c.timeout)
	return c.conn.SetWriteDeadline(c.writeBy)
}

// lockWrite takes the write lock. Writers flush what they wrote when they release it, unless
// another writer waits for it: that one flushes both, so that requests sent together go out
// in one write to the socket, as h2load's do.
func (c *h2Conn) lockWrite() {
	c.writers.Add(1)
	c.wmu.Lock()
}

// unlockWrite flushes unless another writer waits, and releases the write lock. After an error
// nothing is flushed: the connection is closed.
func (c *h2Conn) unlockWrite(err error) error {
	if c.writers.Add(-1) == 0 && err == nil {
		err = c.bw.Flush()
	}
	c.wmu.Unlock()
	return err
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
			var ce http2.ConnectionError
			if errors.As(err, &ce) {
				_ = c.write(func() error { return c.fr.WriteGoAway(0, http2.ErrCode(ce), nil) })
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
		c.stats.h2Resets.Add(1)
		var err error = h2StreamReset{code: f.ErrCode}
		if f.ErrCode == http2.ErrCodeRefusedStream {
			err = errH2RefusedRetry
		}
		c.endStream(f.StreamID, err)
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
		c.windowUpdate(f.StreamID, f.Increment)
	case *http2.PushPromiseFrame:
		return http2.ConnectionError(http2.ErrCodeProtocol) // push was disabled in the settings
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
	case !st.headers:
		st.fail(errors.New("http2: the server sent body data before the answer's headers"))
		c.resetLocked(st, http2.ErrCodeProtocol)
	case len(st.buf)-st.off+int(f.Length) > h2StreamWindow+h2StreamCredit:
		st.fail(errors.New("http2: the server sent more than the stream's flow-control window"))
		c.resetLocked(st, http2.ErrCodeFlowControl)
	default:
		st.buf = append(st.buf, f.Data()...)
		st.recvPadding += f.Length - uint32(len(f.Data()))
		if f.StreamEnded() {
			st.ended = true
		}
		st.signal()
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
	c.hd.fields, c.hd.size, c.hd.tooLarge = c.hd.fields[:0], 0, false
	c.mu.Lock()
	c.hd.keep = c.streams[stream] != nil
	c.mu.Unlock()
	c.dec.SetEmitEnabled(c.hd.keep)
}

// headerFragment decodes a fragment of the current header block; at its end the block goes
// to its stream. Blocks of streams nobody waits on are decoded all the same, as they change
// the decoder's table.
func (c *h2Conn) headerFragment(frag []byte, end bool) error {
	if _, err := c.dec.Write(frag); err != nil {
		return http2.ConnectionError(http2.ErrCodeCompression)
	}
	if !end {
		return nil
	}
	if err := c.dec.Close(); err != nil {
		return http2.ConnectionError(http2.ErrCodeCompression)
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
	if st == nil {
		return
	}
	if st.headers { // trailers: tolerated, and not kept
		if c.hd.endStream {
			st.ended = true
			st.signal()
		}
		return
	}
	if c.hd.tooLarge {
		st.fail(h2HeadersTooLarge{limit: c.maxList})
		c.resetLocked(st, http2.ErrCodeCancel)
		return
	}
	status, text, ok := h2Status(c.hd.fields)
	switch {
	case !ok:
		st.fail(errH2BadStatus)
		c.resetLocked(st, http2.ErrCodeProtocol)
	case status >= 100 && status < 200 && !c.hd.endStream:
		if st.interim++; st.interim > maxInterim {
			st.fail(errTooManyInterim)
			c.resetLocked(st, http2.ErrCodeCancel)
		}
	default:
		st.headers, st.status, st.statusText = true, status, text
		st.fields = append(st.fields[:0], c.hd.fields...)
		st.ended = c.hd.endStream
		st.signal()
	}
}

// windowUpdate grows a send window: the connection's (stream 0) or a stream's.
func (c *h2Conn) windowUpdate(stream, incr uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if stream == 0 {
		c.sendWindow += int32(incr)
	} else if st := c.streams[stream]; st != nil {
		st.sendWindow += int32(incr)
	}
	c.wakeSenders()
}

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
	c.stats.h2GoAways.Add(1)
	c.mu.Lock()
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

// endStream ends stream id with err (RST_STREAM from the server). A stream whose answer came
// whole ends as it was: servers reset the streams of answers they gave before reading the
// whole request body (RFC 9113 8.1).
func (c *h2Conn) endStream(id uint32, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.streams[id]; st != nil {
		if !st.ended {
			st.fail(err)
		}
		c.removeLocked(st)
	}
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

// fail ends the connection with err: its streams fail, and it leaves the pool.
func (c *h2Conn) fail(err error) {
	c.mu.Lock()
	if c.err == nil {
		switch {
		case c.goAway:
			c.err = goAwayError{code: c.goAwayCode.String(), err: err}
		case errors.Is(err, io.EOF):
			c.err = fmt.Errorf("http2: %w", fasthttp.ErrConnectionClosed)
		default:
			c.err = fmt.Errorf("http2: reading from the connection: %w", err)
		}
	}
	for _, st := range c.streams {
		st.fail(c.err)
		c.removeLocked(st)
	}
	c.wakeSenders()
	c.mu.Unlock()
	c.idle.Stop()
	c.conn.Close()
	c.host.remove(c)
}

// reserve takes a stream slot on the connection for a request, if it has one.
func (c *h2Conn) reserve() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil || c.goAway || c.closing || c.active >= int(c.maxStreams) || c.nextID+2*uint32(c.active) >= h2MaxStreamID {
		return false
	}
	c.active++
	return true
}

// takesNoStreams tells whether the server lets the connection carry no stream at all.
func (c *h2Conn) takesNoStreams() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.maxStreams == 0
}

// unreserve gives back a slot reserve took; the connection may now be idle.
func (c *h2Conn) unreserve() {
	c.mu.Lock()
	c.active--
	closeNow := c.active == 0 && (c.goAway || c.closing)
	if c.active == 0 {
		c.idleSince = time.Now()
	}
	c.mu.Unlock()
	if closeNow {
		c.conn.Close()
	}
}

// closeIfIdle closes the connection when no request has used it for idleAfter, as fasthttp
// and net/http close kept-alive connections, and checks again later otherwise.
func (c *h2Conn) closeIfIdle() {
	c.mu.Lock()
	left := c.idleAfter
	if c.active == 0 {
		left -= time.Since(c.idleSince)
	}
	if left <= 0 {
		c.closing = true
	}
	c.mu.Unlock()
	if left > 0 {
		c.idle.Reset(left)
		return
	}
	c.conn.Close()
}

// closeIdle closes the connection if no request uses it.
func (c *h2Conn) closeIdle() {
	c.mu.Lock()
	idle := c.active == 0
	if idle {
		c.closing = true
	}
	c.mu.Unlock()
	if idle {
		c.conn.Close()
	}
}
