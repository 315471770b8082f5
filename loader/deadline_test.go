package loader

import (
	"net"
	"testing"
	"time"
)

// deadlineConn counts the deadlines set on a real connection.
type deadlineConn struct {
	net.Conn
	both, read, write int
}

func (c *deadlineConn) SetDeadline(t time.Time) error {
	c.both++
	return c.Conn.SetDeadline(t)
}

func (c *deadlineConn) SetReadDeadline(t time.Time) error {
	c.read++
	return c.Conn.SetReadDeadline(t)
}

func (c *deadlineConn) SetWriteDeadline(t time.Time) error {
	c.write++
	return c.Conn.SetWriteDeadline(t)
}

// A request's write and read deadlines at the same instant reach the socket as one deadline;
// a read deadline at another instant, or a second one, still reaches it.
func TestDeadlinesSetTogether(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	dc := &deadlineConn{Conn: raw}
	c := newWireConn(dc)
	at := time.Now().Add(time.Minute)
	type counts struct{ both, read, write int }
	steps := []struct {
		name string
		set  func() error
		want counts
	}{
		{"write deadline", func() error { return c.SetWriteDeadline(at) }, counts{1, 0, 0}},
		{"read deadline at the same instant", func() error { return c.SetReadDeadline(at) }, counts{1, 0, 0}},
		{"the same read deadline again", func() error { return c.SetReadDeadline(at) }, counts{1, 1, 0}},
		{"next write deadline", func() error { return c.SetWriteDeadline(at.Add(time.Second)) }, counts{2, 1, 0}},
		{"read deadline at another instant", func() error { return c.SetReadDeadline(at) }, counts{2, 2, 0}},
		{"cleared deadlines", func() error { return c.SetWriteDeadline(time.Time{}) }, counts{3, 2, 0}},
		{"cleared read deadline", func() error { return c.SetReadDeadline(time.Time{}) }, counts{3, 2, 0}},
	}
	for _, s := range steps {
		if err := s.set(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := (counts{dc.both, dc.read, dc.write}); got != s.want {
			t.Fatalf("after %s: socket saw %+v deadlines, want %+v", s.name, got, s.want)
		}
	}
}
