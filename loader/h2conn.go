package loader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
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
	// h2WakeBytes is how much unread body a stream takes in before its reader wakes the
	// request waiting on it; the end of the answer, or a failure, wakes it at once. Woken at
	// the head, a request with a small body most often found no body yet, as servers write
	// the head and the body apart, and waited again: two wake-ups a request where one does.
	// No figure reads the head's time: a request's clock stops at the body's last byte.
	h2WakeBytes = 32 << 10
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
	// h2MaxReadFrame is the largest frame the server may send: the client leaves
	// SETTINGS_MAX_FRAME_SIZE at HTTP/2's initial value. A larger one ends the connection at
	// once, as the first bytes of a server that answers in HTTP/1.1 read as one.
	h2MaxReadFrame = 16 << 10
	// h2MaxWindow is the largest a flow-control window may grow (RFC 9113 6.9.1).
	h2MaxWindow = 1<<31 - 1
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
	dec *hpackReader
	hd  h2HeaderBlock // the header block being read; readLoop only
	// checked is what the last head that may repeat was found to be; readLoop only.
	checked h2HeadChecks

	wmu      sync.Mutex // the write side: fr's writes, bw, enc, hbuf, intern, lower, flushing
	flushing bool       // the flusher was asked to write what bw holds
	flushReq chan struct{}
	done     chan struct{} // closed when the connection ends: the flusher stops
	writeBy  time.Time     // the socket's write deadline (armWrite)
	bw       *bufio.Writer
	enc      *hpack.Encoder
	hbuf     bytes.Buffer
	intern   keptStrings // header names and values sent, to give hpack strings without allocating
	lower    []byte
	// The last head encoded (see encodeHead): its fields as a key, its block, and whether
	// the block refers to the table only. headKey is the buffer the next key is built in.
	lastHead, headKey, headBlock []byte
	headIndexed                  bool

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

// errH2Unusable is a request that found its connection ended before it was written: it goes
// out on another connection, as the server never saw it.
var errH2Unusable = errors.New("http2: connection ended before the request was sent")

// newH2Conn starts HTTP/2 on conn, whose TLS handshake (if any) agreed on h2: it sends the
// client's preface and settings and reads the server's settings, all before deadline, then
// starts the connection's reader. It closes conn when it fails.
func newH2Conn(conn net.Conn, host *h2Host, deadline time.Time) (*h2Conn, error) {
	client := host.client
	c := &h2Conn{
		conn: conn, host: host, stats: client.stats, timeout: client.timeout, maxList: client.maxHeaderList,
		bw:         bufio.NewWriterSize(conn, 32<<10),
		flushReq:   make(chan struct{}, 1),
		done:       make(chan struct{}),
		intern:     newKeptStrings(h2InternMax, h2InternMaxValue),
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
	c.fr.SetMaxReadFrameSize(h2MaxReadFrame)
	c.enc = hpack.NewEncoder(&c.hbuf)
	c.dec = newHPACKReader(4096, c.emit)
	c.dec.SetMaxStringLength(int(c.maxList))
	if err := c.start(deadline); err != nil {
		conn.Close()
		return nil, fmt.Errorf("starting HTTP/2: %w", err)
	}
	c.idle = time.AfterFunc(c.idleAfter, c.closeIfIdle)
	go c.readLoop()
	go c.flushLoop()
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
	if errors.Is(err, http2.ErrFrameTooLarge) {
		return h2ProtocolError{code: http2.ErrCodeProtocol, what: "its first bytes are not an HTTP/2 frame (does it speak HTTP/1.1 only?)"}
	}
	if err != nil {
		return fmt.Errorf("reading the server's settings: %w", c.protocolError(err))
	}
	sf, ok := f.(*http2.SettingsFrame)
	if !ok || sf.IsAck() {
		return h2ProtocolError{code: http2.ErrCodeProtocol, what: fmt.Sprintf("its first frame is %v, not SETTINGS", f.Header().Type)}
	}
	if err := c.settings(sf); err != nil {
		return err
	}
	return c.conn.SetDeadline(time.Time{})
}

// write writes frames of the connection's own (acknowledgements, window updates, resets,
// GOAWAY) within Config.Timeout, and flushes them at once with whatever requests wait in bw:
// they are few, and a GOAWAY must be out before the connection closes.
func (c *h2Conn) write(frames func() error) error {
	c.lockWrite()
	err := c.armWrite()
	if err == nil {
		err = frames()
	}
	if err == nil {
		err = c.bw.Flush()
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

// lockWrite takes the write lock.
func (c *h2Conn) lockWrite() { c.wmu.Lock() }

// unlockWrite releases the write lock and leaves what was written to the flusher. After an
// error nothing is flushed: the connection is closed.
func (c *h2Conn) unlockWrite(err error) error {
	if err == nil && !c.flushing && c.bw.Buffered() > 0 {
		c.flushing = true
		c.flushReq <- struct{}{} // never blocks: one request at a time, under wmu
	}
	c.wmu.Unlock()
	return err
}

// flushLoop writes to the socket what the connection's writers left in bw. Asked, it first
// lets the goroutines ready to run take their turn: the users an answer woke write their next
// requests, and one write to the socket carries them all, as h2load's does. On a busy
// connection that is a write for many requests instead of one each, and fewer, larger reads
// for the server; a lone request waits the time of one scheduler turn.
func (c *h2Conn) flushLoop() {
	for {
		select {
		case <-c.flushReq:
		case <-c.done:
			return
		}
		runtime.Gosched()
		c.wmu.Lock()
		c.flushing = false
		err := c.armWrite()
		if err == nil {
			err = c.bw.Flush()
		}
		c.wmu.Unlock()
		if err != nil {
			c.fail(h2WriteError{err})
			return
		}
	}
}

// h2WriteError is a failed write to the connection: every stream on it fails with it.
type h2WriteError struct{ err error }

func (e h2WriteError) Error() string { return "http2: writing to the connection: " + e.err.Error() }
func (e h2WriteError) Unwrap() error { return e.err }

// fail ends the connection with err: its streams fail, and it leaves the pool.
func (c *h2Conn) fail(err error) {
	c.mu.Lock()
	if c.err == nil {
		switch {
		case c.goAway:
			c.err = goAwayError{code: c.goAwayCode.String(), err: err}
		case errors.As(err, new(h2ProtocolError)), errors.As(err, new(h2WriteError)):
			c.err = err
		case errors.Is(err, io.EOF):
			c.err = fmt.Errorf("http2: %w", fasthttp.ErrConnectionClosed)
		default:
			c.err = fmt.Errorf("http2: reading from the connection: %w", err)
		}
		close(c.done)
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
