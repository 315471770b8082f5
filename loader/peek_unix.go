//go:build unix

package loader

import (
	"errors"
	"net"
	"syscall"
)

// idleCheck tells whether usable can look at an idle connection's socket on this system.
const idleCheck = true

// watchSocket finds the TCP socket under conn's TLS and tunnel layers, for usable.
func (c *wireConn) watchSocket(conn net.Conn) {
	if sc, ok := tcpOf(conn).(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			c.raw = raw
			c.peekFn = c.peek // made once: a method value per request would allocate
		}
	}
}

// usable tells whether an idle kept-alive connection can carry another request: the server
// has not closed it and nothing arrived on it unasked. One non-blocking peek at the socket, a
// system call, answers both.
func (c *wireConn) usable() bool {
	if c.raw == nil {
		return true
	}
	c.looks++
	if err := c.raw.Read(c.peekFn); err != nil {
		return false
	}
	// EAGAIN: nothing to read, the connection is idle and open. Zero bytes without an error is
	// the server's FIN; any byte is either an answer nobody asked for or a TLS alert before it.
	return c.peekN < 0 && (errors.Is(c.peekErr, syscall.EAGAIN) || errors.Is(c.peekErr, syscall.EINTR))
}

// peek looks at the socket without reading from it or waiting. Under awaitAnswer it asks to
// wait while the socket is empty, and after the poller's wake-up it takes the socket for
// readable without another look, a system call saved on every waiting request: a wake-up for
// nothing only means the read that follows waits, as it would have without awaitAnswer.
func (c *wireConn) peek(fd uintptr) bool {
	switch c.peekN {
	case peekWoken:
		return true
	case peekAwait:
		_, _, err := syscall.Recvfrom(int(fd), c.peekBuf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		if err == syscall.EAGAIN {
			c.peekN = peekWoken // set now, read after the wait
			return false
		}
		return true // bytes, the server's close or an error: the read tells which
	}
	var n int
	n, _, c.peekErr = syscall.Recvfrom(int(fd), c.peekBuf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	c.peekN = int8(n) // at most the one byte of peekBuf
	if c.peekErr != nil {
		c.peekN = -1
	}
	return true // done, do not wait for the socket to become readable
}

// The states of peekN while awaitAnswer waits, beside usable's byte counts.
const (
	peekAwait = -2 // awaitAnswer began: look at the socket
	peekWoken = -3 // the socket was empty, then the poller said it became readable
)

// awaitAnswer waits until the socket has something to read (the answer, the server's close, an
// error) or the read deadline passes; the read that follows tells which. One look at the socket
// comes first: Go's poller reports a socket that becomes readable, not one that is already.
func (c *wireConn) awaitAnswer() {
	if c.raw == nil {
		return
	}
	c.peekN = peekAwait
	_ = c.raw.Read(c.peekFn) // an error (deadline, closed) is the next read's too
	c.peekN = -1
}
