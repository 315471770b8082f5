//go:build linux && !race

package loader

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// rawSocket reads and writes a TCP connection's socket with raw system calls, through its
// RawConn: the network poller still waits when the socket has nothing to read or no room, and
// still keeps the deadlines, but a read or write is not announced to the scheduler as a call
// that may block. The socket is non-blocking, so none does; and the announcement is not free:
// a write on loopback runs the server's side of TCP too, and when it outlasts the system
// monitor's tick (20 µs at first) the thread's processor is handed to another thread, which is
// woken for it, while this one, back from the call, sleeps. Errors read as net.TCPConn's own. Not under the race
// detector (see rawsocket_other.go).
//
// One read and one write may be in progress at a time, as fasthttp, TLS and the HTTP/2
// connection use a connection.
type rawSocket struct {
	conn net.Conn // for the addresses errors name
	rc   syscall.RawConn

	readFn, writeFn func(fd uintptr) bool // made once: a method value per call would allocate

	rp   []byte
	rn   int
	rerr syscall.Errno

	wp   []byte
	wn   int
	werr syscall.Errno
}

// newRawSocket is conn's raw socket, nil when conn is not a TCP connection.
func newRawSocket(conn net.Conn) *rawSocket {
	tc, ok := conn.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	s := &rawSocket{conn: conn, rc: rc}
	s.readFn, s.writeFn = s.doRead, s.doWrite
	return s
}

func (s *rawSocket) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.rp, s.rn, s.rerr = p, 0, 0
	err := s.rc.Read(s.readFn)
	s.rp = nil
	switch {
	case err != nil:
		return 0, s.opError("read", pollError(err))
	case s.rerr != 0:
		return 0, s.opError("read", os.NewSyscallError("read", s.rerr))
	case s.rn == 0:
		return 0, io.EOF
	}
	return s.rn, nil
}

// doRead reads once; false asks the poller to wait until the socket has something. After a
// read that took less than it asked for, the next still reads before it waits, though it will
// most often find nothing: RawConn.Read clears the poller's word that bytes came before it
// calls doRead, so a wait first would miss bytes that came in between (see the test "a short
// read, then bytes that came before the next read").
func (s *rawSocket) doRead(fd uintptr) bool {
	for {
		n, errno := rawIO(unix.SYS_READ, fd, s.rp)
		switch errno {
		case 0:
			s.rn = n
			return true
		case unix.EAGAIN:
			return false
		case unix.EINTR:
			continue
		}
		s.rerr = errno
		return true
	}
}

func (s *rawSocket) write(p []byte) (int, error) {
	s.wp, s.wn, s.werr = p, 0, 0
	err := s.rc.Write(s.writeFn)
	n := s.wn
	s.wp = nil
	switch {
	case err != nil:
		return n, s.opError("write", pollError(err))
	case s.werr != 0:
		return n, s.opError("write", os.NewSyscallError("write", s.werr))
	}
	return n, nil
}

// doWrite writes what is left of p; false asks the poller to wait for room.
func (s *rawSocket) doWrite(fd uintptr) bool {
	for s.wn < len(s.wp) {
		n, errno := rawIO(unix.SYS_WRITE, fd, s.wp[s.wn:])
		switch errno {
		case 0:
			s.wn += n
		case unix.EAGAIN:
			return false
		case unix.EINTR:
		default:
			s.werr = errno
			return true
		}
	}
	return true
}

// opError is err as net.TCPConn's Read and Write give it.
func (s *rawSocket) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "tcp", Source: s.conn.LocalAddr(), Addr: s.conn.RemoteAddr(), Err: err}
}

// pollError is what the poller said (a deadline passed, the connection was closed), without
// the wrapping RawConn gives it.
func pollError(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		return oe.Err
	}
	return err
}
