package loader

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"
)

// BenchmarkRequestReady is what a request costs the client before its bytes reach the socket:
// the URL's request prepared afresh (copied from the template, its URL parsed when written),
// as every request was, against sent again as it is, as a user repeating a URL now does.
func BenchmarkRequestReady(b *testing.B) {
	l := benchLoader(b)
	w := bufio.NewWriter(io.Discard)
	for _, again := range []bool{false, true} {
		name := "afresh"
		if again {
			name = "again"
		}
		b.Run(name, func(b *testing.B) {
			x := l.newExchange()
			defer x.release()
			b.ReportAllocs()
			for b.Loop() {
				if !again || !x.prepared(0) {
					l.prepare(0, &x.req)
				}
				x.req.SetTimeout(l.cfg.Timeout)
				if err := x.req.Write(w); err != nil {
					b.Fatal(err)
				}
				x.ready = 1
			}
		})
	}
}

// BenchmarkRequestDeadlines is what giving a request its deadline costs: the write and the read
// deadline set on the socket, as fasthttp does a request, against kept while they serve (see
// deadlines).
func BenchmarkRequestDeadlines(b *testing.B) {
	const timeout = 30 * time.Second
	conn := idleLoopbackConn(b)
	c := newWireConn(conn)
	c.dl.slack = deadlineSlack(timeout)
	for _, tc := range []struct {
		name string
		conn net.Conn
	}{{"socket", conn}, {"kept", c}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t := time.Now().Add(timeout)
				if err := tc.conn.SetWriteDeadline(t); err != nil {
					b.Fatal(err)
				}
				if err := tc.conn.SetReadDeadline(t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
