package loader

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// chunks is a reader that returns its parts one per Read, as a socket may.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	if c.parts[0] = c.parts[0][n:]; c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// A head's bare LFs become CRLF wherever the reads split it and however small the reader's
// buffer is; the body is left as it came, bare LFs and all.
func TestLineEndsFix(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"CRLF untouched", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nx\ny", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nx\ny"},
		{"bare LF", "HTTP/1.1 200 OK\nA: b\n\nx\ny", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nx\ny"},
		{"mixed", "HTTP/1.1 200 OK\r\nA: b\n\r\nx\n", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nx\n"},
		{"blank line bare after CRLF", "HTTP/1.1 204 No\r\nA: b\r\n\nx\n", "HTTP/1.1 204 No\r\nA: b\r\n\r\nx\n"},
		{"CR inside a line", "HTTP/1.1 200 OK\r\nA: b\rc\nD: e\r\n\r\nx\n", "HTTP/1.1 200 OK\r\nA: b\rc\r\nD: e\r\n\r\nx\n"},
		{"bare LF on the last line", "HTTP/1.1 200 OK\r\nA: b\r\nC: d\n\r\nx", "HTTP/1.1 200 OK\r\nA: b\r\nC: d\r\n\r\nx"},
		{"blank first line", "\r\nHTTP/1.1 200 OK\nA: b\n\nx\n", "\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\nx\n"},
		{"bare blank first lines", "\n\r\n\nHTTP/1.1 200 OK\nA: b\n\nx\n", "\r\n\r\n\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\nx\n"},
		{"blank first line, CRLF head", "\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\nx\n", "\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\nx\n"},
		{"CRLF head, CRLF body", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nx\r\n\r\ny\n", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nx\r\n\r\ny\n"},
		{"interim answer, then a bare head", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\nA: b\n\nx\n", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\nx\n"},
		{"bare interim answers", "HTTP/1.1 103\nLink: </a>\n\n\nHTTP/1.0   102 x\n\nHTTP/1.1 200 OK\n\nx\n",
			"HTTP/1.1 103\r\nLink: </a>\r\n\r\n\r\nHTTP/1.0   102 x\r\n\r\nHTTP/1.1 200 OK\r\n\r\nx\n"},
		{"interim answer with spaces before its code", "HTTP/1.1" + strings.Repeat(" ", 30) + "100 Continue\n\nHTTP/1.1 200 OK\n\nx\n",
			"HTTP/1.1" + strings.Repeat(" ", 30) + "100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\nx\n"},
		{"switching protocols is no interim answer", "HTTP/1.1 101 Switching\n\nx\n\ny\n", "HTTP/1.1 101 Switching\r\n\r\nx\n\ny\n"},
		{"a 4-digit code is no interim answer", "HTTP/1.1 1000\n\nx\n\ny\n", "HTTP/1.1 1000\r\n\r\nx\n\ny\n"},
		{"a CR after the code", "HTTP/1.1 100\r\r\n\r\nx\n\ny\n", "HTTP/1.1 100\r\r\n\r\nx\n\ny\n"},
		{"a final answer's code in the reason", "HTTP/1.1 200 100\n\nx\n\ny\n", "HTTP/1.1 200 100\r\n\r\nx\n\ny\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for split := 0; split <= len(tc.in); split++ {
				for _, size := range []int{1, 2, 3, 7, 64} {
					var e lineEnds
					e.start()
					r := &chunks{parts: []string{tc.in[:split], tc.in[split:]}}
					var got []byte
					buf := make([]byte, size)
					for range 1000 {
						n, err := e.read(r, buf)
						got = append(got, buf[:n]...)
						if err != nil {
							break
						}
					}
					if string(got) != tc.want {
						t.Fatalf("split at %d, buffer %d: %q, want %q", split, size, got, tc.want)
					}
				}
			}
		})
	}
}

// BenchmarkLineEnds reads nginx's answer through lineEnds, as the goroutine engine reads
// every answer: the cost of the check for bare line ends on the common, CRLF-only head.
func BenchmarkLineEnds(b *testing.B) {
	in := []byte(nginxAnswer + strings.Repeat("x", 100))
	buf := make([]byte, 4096)
	var r bytes.Reader
	var e lineEnds
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r.Reset(in)
		e.start()
		for {
			if _, err := e.read(&r, buf); err != nil {
				break
			}
		}
	}
}
