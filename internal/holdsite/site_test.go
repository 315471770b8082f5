package holdsite

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// A request sent to the site gets no answer while the site runs, and its connection is closed
// when the site closes.
func TestHoldsUntilClosed(t *testing.T) {
	t.Parallel()
	s, err := Start("127.0.0.1:0", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var conns []net.Conn
	for _, a := range s.Addrs() {
		c, err := net.Dial("tcp", a)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i := 0; i < 500 && s.Held() < len(conns); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := s.Held(); got != len(conns) {
		t.Fatalf("holds %d connections, want %d", got, len(conns))
	}
	buf := make([]byte, 1)
	conns[0].SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, err := conns[0].Read(buf); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read %d bytes, %v; want no answer while held", n, err)
	}
	s.Close()
	conns[1].SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := conns[1].Read(buf); n != 0 || err == nil {
		t.Fatalf("read %d bytes, %v after close; want the connection closed", n, err)
	}
}
