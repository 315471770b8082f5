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
		{"trailers with bare line feeds", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nT: a\nU: b\n\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nT: a\r\nU: b\r\n\r\n"},
		{"last chunk, then a bare line feed", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
		{"chunk data with line feeds", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\n\n0\n\r\n10 \r\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\r\n0\r\n\n",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\n\n0\n\r\n10 \r\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\r\n0\r\n\r\n"},
		{"bare head, chunked, bare trailers", "HTTP/1.1 200 OK\ntransfer-encoding :  Chunked \n\n2\r\nok\r\n0\r\n\n",
			"HTTP/1.1 200 OK\r\ntransfer-encoding :  Chunked \r\n\r\n2\r\nok\r\n0\r\n\r\n"},
		{"interim answer, then chunked", "HTTP/1.1 100 Continue\nTransfer-Encoding: x\n\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: a\n\n",
			"HTTP/1.1 100 Continue\r\nTransfer-Encoding: x\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: a\r\n\r\n"},
		// fasthttp joins a field's continuation lines (obs-fold) to it, a space each: an empty
		// value continued by "chunked" says chunked, "chunked" continued by anything does not.
		{"chunked on a continuation line", "HTTP/1.1 200 \nTrAnsfer-EnCoding:\n Chunked\n\n0\r\n\n",
			"HTTP/1.1 200 \r\nTrAnsfer-EnCoding:\r\n Chunked\r\n\r\n0\r\n\r\n"},
		{"chunked after two continuation lines, ends in CRLF", "HTTP/1.1 200 OK\r\nTransfer-Encoding: \r\n \r\n\tchunked \r\nX: y\r\n\r\n0\r\nT: a\n\n",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: \r\n \r\n\tchunked \r\nX: y\r\n\r\n0\r\nT: a\r\n\r\n"},
		{"chunked, then a continuation line", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n x\r\n\r\n0\r\n\n",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n x\r\n\r\n0\r\n\n"},
		{"chunked split over continuation lines", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chun\r\n ked\r\n\r\n0\r\n\n",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chun\r\n ked\r\n\r\n0\r\n\n"},
		{"chunked in HTTP/1.0 is no chunked body", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n"},
		{"no body after a 204", "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n", "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n"},
		{"a body of Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n0\r\n\n", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n0\r\n\n"},
		{"a chunk line with a bare line feed is not followed", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\r\n0\r\n\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\r\n0\r\n\n"},
		{"chunk data without its CRLF is not followed", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\n0\r\n\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\n0\r\n\n"},
		{"a chunk size of 16 digits is not followed", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0000000000000002\r\nok\r\n0\r\n\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0000000000000002\r\nok\r\n0\r\n\n"},
		{"a chunk size of 15 digits", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n000000000000002\r\nok\r\n0\r\n\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n000000000000002\r\nok\r\n0\r\n\r\n"},
		{"a final answer's code in the reason", "HTTP/1.1 200 100\n\nx\n\ny\n", "HTTP/1.1 200 100\r\n\r\nx\n\ny\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for split := 0; split <= len(tc.in); split++ {
				for _, size := range []int{1, 2, 3, 7, 64} {
					got := readLineEnds([]byte(tc.in), false, split, size)
					if string(got) != tc.want {
						t.Fatalf("split at %d, buffer %d: %q, want %q", split, size, got, tc.want)
					}
				}
			}
		})
	}
}

// readLineEnds reads in through lineEnds, in two reads split at split, into a buffer of size
// bytes, and returns what it read.
func readLineEnds(in []byte, head bool, split, size int) []byte {
	var e lineEnds
	e.start(head)
	r := &chunks{parts: []string{string(in[:split]), string(in[split:])}}
	var got []byte
	buf := make([]byte, size)
	for range 2*len(in) + 4 { // each read gives a byte at least
		n, err := e.read(r, buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
	}
	return got
}

// After a HEAD request, no body follows the head, whatever it says: bytes after it are not
// followed as chunks.
func TestLineEndsHead(t *testing.T) {
	t.Parallel()
	const in = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n"
	for _, head := range []bool{true, false} {
		var e lineEnds
		e.start(head)
		buf := make([]byte, 64)
		n, _ := e.read(strings.NewReader(in), buf)
		if got := string(buf[:n]); (got != in) == head { // fixed after a HEAD, or not fixed after a GET
			t.Errorf("HEAD %v: %q", head, got)
		}
	}
}

// BenchmarkLineEnds reads nginx's answers through lineEnds, as the goroutine engine reads
// every answer: the cost of looking for bare line ends in the head (and in the trailers of a
// chunked body, which it follows) of answers that have none.
func BenchmarkLineEnds(b *testing.B) {
	chunk := strings.Repeat("x", 8000)
	for _, bc := range []struct{ name, in string }{
		{"content-length", nginxAnswer + strings.Repeat("x", 100)},
		{"chunked", strings.Replace(nginxAnswer, "Content-Length: 100", "Transfer-Encoding: chunked", 1) +
			"1f40\r\n" + chunk + "\r\n1f40\r\n" + chunk + "\r\n0\r\n\r\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			in := []byte(bc.in)
			buf := make([]byte, 4096)
			var r bytes.Reader
			var e lineEnds
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				r.Reset(in)
				e.start(false)
				for {
					if _, err := e.read(&r, buf); err != nil {
						break
					}
				}
			}
		})
	}
}
