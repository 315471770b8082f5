package loader

import (
	"bytes"
	"crypto/tls"
	"errors"
	"net"
	"syscall"
	"time"
)

// errStaleConn is what writing to a kept-alive connection returns, with nothing written, when
// the connection can carry no further request: the server closed it while it was idle, or
// bytes nobody asked for wait on it, which would be read as the next answer. The request then
// goes out on another connection.
var errStaleConn = errors.New("the kept-alive connection was closed by the server or holds bytes nobody asked for")

// errRetiredConn is what writing to a connection returns, with nothing written, when this
// client will not use it again: it answered 101 Switching Protocols and no longer speaks
// HTTP/1.1, or writing a request to it failed.
var errRetiredConn = errors.New("the connection is not used again")

// idleCheckAfter is how long a connection must have been idle, from the last byte of its
// previous answer, before a request looks whether it is still usable. The look is a system
// call, as costly as a request's own write on a fast loopback; after a millisecond idle it is a
// small share of any request's time. Servers close idle connections after a second or more,
// and a close seen only after writing is still resent (see roundTrip). Idle time counts from
// the answer, not from the request: a connection handed from one request to the next at once
// is not idle however long its answers took.
const idleCheckAfter = time.Millisecond

// wireConn is the connection fasthttp speaks HTTP/1.1 over, on top of TLS and proxy tunnels. It
// follows the exchanges on it, so that the loader can tell whether a failed request may be
// resent: whether the connection had been used before and whether any byte of the answer came.
// Before a kept-alive connection carries another request, it looks whether the server closed
// it or sent something meanwhile.
//
// Only the goroutine making the current request uses it; fasthttp's pool hands it from one
// request to the next under a lock, which orders the accesses.
type wireConn struct {
	net.Conn
	// raw is the TCP socket, for looking at it without reading (see usable); nil where the
	// system offers no such look or the connection has no socket.
	raw    syscall.RawConn
	peekFn func(fd uintptr) bool
	addr   wireAddr
	born   time.Time     // when the connection was made: the origin of last
	last   time.Duration // when the last bytes of an answer were read, or the connection made
	// since is time.Since, a field so that tests can tell idle from busy by a clock of their
	// own; a function value set once, it costs an indirect call and no allocation per read.
	since func(time.Time) time.Duration
	looks int // how often usable looked at the socket

	// got counts the bytes of answer read for the current request.
	got int
	// head keeps the first bytes of the current answer: its protocol and status code.
	head [len("HTTP/1.1 200")]byte
	// The flags below sit beside head, and awaits beside peekBuf and peekN, filling what
	// alignment would leave empty: every request in flight holds its connection, which at
	// 384 bytes, not 416, fits a smaller size class (TestWaitingUserSizeClasses).

	// used is set once a request on the connection got a byte of answer: a later request on
	// it is on a kept-alive connection.
	used bool
	// writing is set from the first byte of a request written to the first read of its answer.
	writing bool
	// retired is set by a 101 answer, after which the connection no longer speaks HTTP/1.1,
	// and by a failed write.
	retired bool
	// keepHead keeps the head of each answer in rawHead as it came, line ends fixed.
	keepHead bool
	// writeErr is why writing the current request failed; nil if it did not.
	writeErr error
	// lines follows the line ends of the answer's head, see lineEnds.
	lines   lineEnds
	rawHead []byte
	// awaits makes a user wait for its answer before fasthttp takes a read buffer for it
	// (see SetReadDeadline): set when the run may hold enough connections for the buffers
	// to matter.
	awaits bool

	peekBuf [1]byte
	peekN   int8 // what the last look at the socket read (0 or 1 byte), -1, or a state of awaitAnswer
	peekErr error

	// dl is the deadlines set on Conn: kept from request to request while they serve.
	dl deadlines
}

// wireAddr is the local address of a wireConn, which fasthttp hands back with each response
// (Response.LocalAddr): the way from a response to the connection it came on.
type wireAddr struct {
	net.Addr
	conn *wireConn
}

// wire wraps a connection the dialer opened for fasthttp, for requests with timeout; with
// keepHead it keeps each answer's head as it came (see Probe), with awaits it waits for each
// answer before reading it (see SetReadDeadline).
func wire(conn net.Conn, timeout time.Duration, keepHead, awaits bool) net.Conn {
	c := newWireConn(conn)
	c.dl.slack = deadlineSlack(timeout)
	c.keepHead = keepHead
	c.awaits = awaits
	return c
}

// newWireConn wraps conn, which speaks plain HTTP after its TLS and tunnel layers.
func newWireConn(conn net.Conn) *wireConn {
	c := &wireConn{Conn: conn, born: time.Now(), since: time.Since}
	c.addr = wireAddr{Addr: conn.LocalAddr(), conn: c}
	c.watchSocket(conn)
	return c
}

// tcpOf finds the TCP connection under the dialer's layers.
func tcpOf(conn net.Conn) net.Conn {
	for {
		switch c := conn.(type) {
		case *tls.Conn:
			conn = c.NetConn()
		case *bufferedConn:
			conn = c.Conn
		case *countingConn:
			return c.Conn
		default:
			return conn
		}
	}
}

// wireOf returns the connection a response (or its failure) came on, nil when it was not a
// wireConn (HTTP/2, or no connection was made).
func wireOf(addr net.Addr) *wireConn {
	if a, ok := addr.(*wireAddr); ok {
		return a.conn
	}
	return nil
}

// Handshake does nothing: the dialer shook hands already for https targets. fasthttp takes a
// connection with this method as a TLS connection ready for use, instead of wrapping it in a
// TLS client of its own.
func (c *wireConn) Handshake() error { return nil }

// LocalAddr returns the connection's wireAddr.
func (c *wireConn) LocalAddr() net.Addr { return &c.addr }

func (c *wireConn) Write(p []byte) (int, error) {
	if !c.writing {
		// A new request begins.
		c.used = c.used || c.got > 0
		if c.retired {
			return 0, errRetiredConn
		}
		if c.used && (c.lines.pending() || (c.since(c.born)-c.last >= idleCheckAfter && !c.usable())) {
			return 0, errStaleConn
		}
		c.writing, c.got = true, 0
		c.lines.start(bytes.HasPrefix(p, []byte("HEAD ")))
		c.rawHead = c.rawHead[:0]
	}
	if c.writeErr != nil {
		return len(p), nil // the rest of a request the server no longer reads
	}
	n, err := c.Conn.Write(p)
	if err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)) {
		// The server stopped reading, perhaps after answering early (a 413 to a body too
		// large): fasthttp goes on to read its answer, and without one the request fails with
		// this error (see writeFailure), not with whatever reading then says.
		c.writeErr, c.retired = err, true
		return len(p), nil
	}
	return n, err
}

func (c *wireConn) Read(p []byte) (int, error) {
	c.writing = false
	inHead := c.lines.inHead
	n, err := c.lines.read(c.Conn, p)
	if c.keepHead && inHead {
		c.rawHead = append(c.rawHead, p[:n]...)
	}
	if n > 0 && c.got < len(c.head) {
		copy(c.head[c.got:], p[:n])
		if c.got+n >= len(c.head) && string(c.head[len(c.head)-3:]) == "101" {
			c.retired = true
		}
	}
	c.got += n
	if n > 0 {
		c.last = c.since(c.born) // the monotonic clock only, half the cost of time.Now
	}
	return n, err
}

// answered tells whether the current request got any byte of answer.
func (c *wireConn) answered() bool { return c.got > 0 }

// wireHead returns the status line and headers of the current answer as they came on the wire,
// each line ending in CRLF, as far as they were read.
func (c *wireConn) wireHead() []byte {
	if i := bytes.Index(c.rawHead, []byte("\r\n\r\n")); i >= 0 {
		return c.rawHead[:i+2]
	}
	return c.rawHead
}

// statusCode returns the status code of the current answer as it came on the wire, "" when
// its status line has not arrived.
func (c *wireConn) statusCode() string {
	if c.got < len(c.head) {
		return ""
	}
	return string(c.head[len(c.head)-3:])
}
