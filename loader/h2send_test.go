package loader

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// A request's head that bw holds whole does not reach the socket: writeHead leaves the write
// deadline alone then, and looks at it whenever the head's frames would reach the socket.
func TestHTTP2HeadWriteDeadline(t *testing.T) {
	t.Parallel()
	for _, maxFrame := range []int{16 << 10, 100} {
		for _, size := range []int{0, 10, 91, 92, 100, 150, 16375, 16376, 16384, 16385, 32000, 40000} {
			for _, buffered := range []int{0, 100, 16 << 10, 32<<10 - 110, 32<<10 - 105, 32<<10 - 160, 32<<10 - 9} {
				name := fmt.Sprintf("frames of %d, a head of %d, %d buffered", maxFrame, size, buffered)
				client, server := net.Pipe()
				var wire countingWriter
				c := &h2Conn{conn: client, timeout: time.Minute, bw: bufio.NewWriterSize(&wire, 32<<10)}
				c.fr = http2.NewFramer(c.bw, nil)
				c.hbuf.Write(bytes.Repeat([]byte{0x82}, size))
				c.bw.Write(make([]byte, buffered))
				if err := c.writeHead(1, maxFrame, true); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				armed, fits := !c.writeBy.IsZero(), buffered+size+max(1, (size+maxFrame-1)/maxFrame)*9 <= 32<<10
				if wire.n > 0 && !armed {
					t.Errorf("%s: %d bytes reached the socket without a write deadline", name, wire.n)
				}
				if fits && armed {
					t.Errorf("%s: the deadline was set for a head bw holds", name)
				}
				client.Close()
				server.Close()
			}
		}
	}
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// A request's time runs from when it is sent, however long the client has been running.
func TestHTTP2DeadlineFromTheRequest(t *testing.T) {
	t.Parallel()
	addr := serveH2c(t, answerOK, nil)
	c := testH2Client(t, Config{Timeout: 10 * time.Second}, &connStats{})
	c.base = c.base.Add(-time.Hour) // a run an hour old
	for range 3 {
		resp, err := h2Get(t, c, "http://"+addr+"/")
		if err != nil {
			t.Fatal(err)
		}
		if err := resp.CloseBodyStream(); err != nil {
			t.Fatal(err)
		}
	}
}
