//go:build linux && !race

package loader

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// rawPair is a TCP connection to a loopback listener whose accepted end serve runs, read and
// written both through a rawSocket (raw) and as net.TCPConn (plain): each case below runs on
// a connection of each, and the two must give the same bytes and the same errors.
func rawPair(t *testing.T, serve func(c *net.TCPConn)) (plain *net.TCPConn, raw *rawSocket) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	done := make(chan struct{})
	t.Cleanup(func() { <-done })
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		serve(c.(*net.TCPConn))
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	raw = newRawSocket(c)
	if raw == nil {
		t.Fatal("no raw socket for a TCP connection")
	}
	return c.(*net.TCPConn), raw
}

// sameError wants err as want is, but for the ports in the addresses: the same words and the
// same sentinels underneath.
func sameError(t *testing.T, what string, got, want error) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Fatalf("%s: raw gives %v, net.Conn %v", what, got, want)
	}
	if got == nil {
		return
	}
	mask := func(err error) string {
		var oe *net.OpError
		if !errors.As(err, &oe) {
			return err.Error()
		}
		return oe.Op + " " + oe.Net + ": " + oe.Err.Error()
	}
	if mask(got) != mask(want) {
		t.Errorf("%s: raw gives %q, net.Conn %q", what, mask(got), mask(want))
	}
	for _, sentinel := range []error{io.EOF, os.ErrDeadlineExceeded, net.ErrClosed, syscall.ECONNRESET, syscall.EPIPE} {
		if errors.Is(got, sentinel) != errors.Is(want, sentinel) {
			t.Errorf("%s: errors.Is(%v): raw %v, net.Conn %v", what, sentinel, errors.Is(got, sentinel), errors.Is(want, sentinel))
		}
	}
	var gn, wn net.Error
	if errors.As(got, &gn) != errors.As(want, &wn) || gn != nil && gn.Timeout() != wn.Timeout() {
		t.Errorf("%s: net.Error timeouts differ: raw %v, net.Conn %v", what, got, want)
	}
}

func TestRawSocketAsNetConn(t *testing.T) {
	t.Parallel()
	reset := func(c *net.TCPConn) {
		_ = c.SetLinger(0) // the close sends RST
	}
	tests := []struct {
		name  string
		serve func(c *net.TCPConn)
		// use reads and writes through rw, as the client would, and returns what it read and
		// the error it ended with.
		use func(c net.Conn, rw rwFuncs) ([]byte, error)
		// wantIs is what the error must be, on both.
		wantIs error
	}{
		{"reads up to the end", func(c *net.TCPConn) {
			c.Write(bytes.Repeat([]byte("abcdefgh"), 100_000))
		}, readAll, io.EOF},
		{"writes a large request the server reads slowly, then reads its answer", func(c *net.TCPConn) {
			buf := make([]byte, 4096)
			got := 0
			for got < 8<<20 {
				n, err := c.Read(buf)
				if err != nil {
					return
				}
				got += n
				if got < 1<<20 {
					time.Sleep(time.Millisecond) // the client's writes fill the socket and wait
				}
			}
			c.Write([]byte("got it"))
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			n, err := rw.write(bytes.Repeat([]byte("x"), 8<<20))
			if err != nil || n != 8<<20 {
				return nil, err
			}
			return readAll(c, rw)
		}, io.EOF},
		{"a reset while reading", func(c *net.TCPConn) {
			c.Read(make([]byte, 1)) // the client's go-ahead: its connect is done
			c.Write([]byte("partial"))
			reset(c)
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			if _, err := rw.write([]byte("k")); err != nil {
				return nil, err
			}
			_, err := readAll(c, rw)
			return nil, err // the bytes before the reset may be read or dropped, by either
		}, syscall.ECONNRESET},
		{"a write after the server reset", func(c *net.TCPConn) {
			c.Read(make([]byte, 1))
			reset(c)
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			if _, err := rw.write([]byte("k")); err != nil {
				return nil, err
			}
			if _, err := readAll(c, rw); !errors.Is(err, syscall.ECONNRESET) {
				return nil, err
			}
			_, err := rw.write([]byte("hello")) // after the reset was read: EPIPE
			return nil, err
		}, syscall.EPIPE},
		{"a read past its deadline", func(c *net.TCPConn) {
			time.Sleep(200 * time.Millisecond)
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			_, err := rw.read(make([]byte, 10))
			return nil, err
		}, os.ErrDeadlineExceeded},
		{"a read with a deadline gone already", func(c *net.TCPConn) {
			time.Sleep(100 * time.Millisecond)
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			c.SetReadDeadline(time.Now().Add(-time.Second))
			_, err := rw.read(make([]byte, 10))
			return nil, err
		}, os.ErrDeadlineExceeded},
		{"a write past its deadline", func(c *net.TCPConn) {
			time.Sleep(300 * time.Millisecond) // reads nothing: the client's socket fills
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			c.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
			_, err := rw.write(bytes.Repeat([]byte("x"), 64<<20))
			return nil, err
		}, os.ErrDeadlineExceeded},
		{"a read of a closed connection", func(c *net.TCPConn) {}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			c.Close()
			_, err := rw.read(make([]byte, 10))
			return nil, err
		}, net.ErrClosed},
		{"a write to a closed connection", func(c *net.TCPConn) {}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			c.Close()
			_, err := rw.write([]byte("x"))
			return nil, err
		}, net.ErrClosed},
		{"short reads, the rest coming later", func(c *net.TCPConn) {
			for _, part := range []string{"hello", " ", "world"} {
				c.Write([]byte(part))
				time.Sleep(20 * time.Millisecond) // the client has read it all: its socket is empty
			}
		}, readAll, io.EOF},
		{"a short read, then bytes that came before the next read", func(c *net.TCPConn) {
			c.Write([]byte("a"))
			c.Read(make([]byte, 1)) // the client read "a"
			c.Write([]byte("bcd"))
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			buf := make([]byte, 100)
			n, err := rw.read(buf)
			if err != nil {
				return nil, err
			}
			out := append([]byte(nil), buf[:n]...)
			if _, err := rw.write([]byte("k")); err != nil {
				return nil, err
			}
			time.Sleep(50 * time.Millisecond) // "bcd" and the end wait in the socket
			more, err := readAll(c, rw)
			return append(out, more...), err
		}, io.EOF},
		{"a short read, then a reset", func(c *net.TCPConn) {
			c.Write([]byte("x"))
			time.Sleep(30 * time.Millisecond)
			reset(c)
		}, readAll, syscall.ECONNRESET},
		{"a short read, then the deadline", func(c *net.TCPConn) {
			c.Write([]byte("x"))
			time.Sleep(300 * time.Millisecond)
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			return readAll(c, rw)
		}, os.ErrDeadlineExceeded},
		{"empty reads and writes", func(c *net.TCPConn) {
			c.Write([]byte("z"))
		}, func(c net.Conn, rw rwFuncs) ([]byte, error) {
			if n, err := rw.read(nil); n != 0 || err != nil {
				return nil, err
			}
			if n, err := rw.write(nil); n != 0 || err != nil {
				return nil, err
			}
			return readAll(c, rw)
		}, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			plainConn, _ := rawPair(t, tt.serve)
			wantBytes, wantErr := tt.use(plainConn, rwFuncs{plainConn.Read, plainConn.Write})
			rawConn, raw := rawPair(t, tt.serve)
			gotBytes, gotErr := tt.use(rawConn, rwFuncs{raw.read, raw.write})
			if !bytes.Equal(gotBytes, wantBytes) {
				t.Errorf("raw read %d bytes (%.20q), net.Conn %d (%.20q)", len(gotBytes), gotBytes, len(wantBytes), wantBytes)
			}
			sameError(t, tt.name, gotErr, wantErr)
			if !errors.Is(gotErr, tt.wantIs) || !errors.Is(wantErr, tt.wantIs) {
				t.Errorf("raw gives %v and net.Conn %v, want %v", gotErr, wantErr, tt.wantIs)
			}
		})
	}
}

type rwFuncs struct {
	read, write func([]byte) (int, error)
}

// readAll reads with small reads until an error, which it returns with what it read; io.EOF
// is returned as it is, unlike io.ReadAll's.
func readAll(_ net.Conn, rw rwFuncs) ([]byte, error) {
	var out []byte
	buf := make([]byte, 1500)
	for {
		n, err := rw.read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
}
