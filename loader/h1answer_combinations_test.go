package loader

import (
	"bufio"
	"strings"
	"testing"
)

// TestH1AnswerCombinations reads every combination of a few status lines, two header fields
// from a list of those that frame an answer or that a reader treats apart, line ends and
// bodies with the event loop's reader, the goroutine engine's and net/http's, as
// FuzzH1AnswerAsFasthttp and FuzzH1Answer do with random bytes: the fuzzers find a difference
// by luck, this finds the ones between known parts at once.
func TestH1AnswerCombinations(t *testing.T) {
	t.Parallel()
	statuses := []string{"HTTP/1.1 200 OK", "HTTP/1.0 200 OK", "HTTP/1.1 204 No Content", "HTTP/1.1 304 Not Modified",
		"HTTP/1.1 101 Switching Protocols", "HTTP/1.2 200", "HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK", "HTTP/1.1 100 Continue", "HTTP/1.1 200 \x80",
		"HTTP/1.1   200", "\r\nHTTP/1.1 200 OK", "HTTP/1.1 199 x\r\nTransfer-Encoding: chunked\r\n\r\nHTTP/1.1 200 OK"}
	fields := []string{"", "Content-Length: 2", "Content-Length: 02", "Content-Length: 2, 2", "Content-Length:",
		"Content-Length: 2\r\n ", "Content-Length:\r\n 2", "Transfer-Encoding: chunked", "Transfer-Encoding: Chunked",
		"Transfer-Encoding: chunked\r\n\t", "Transfer-Encoding: gzip", "Connection: close", "Connection: keep-alive",
		"Connection: Upgrade", "Connection: keep-alive, close", "Trailer: X-Sum", "Trailer: Host", "Trailer: a,,b",
		"Trailer: X-Sum,", "Content-Type: text/html", "Content-Encoding: gzip", "Set-Cookie: a=b", "Server: x",
		"X A: b", "X-A : b", "X-A: b\r\n c", "X-A: \x80", "Connection: close, Upgrade", "Connection: keep-alive\r\n ",
		"Transfer-Encoding: chunked, chunked", "Content-Length: +2", "Content-Length: 2 ", "Trailer: X-Sum\r\n Host",
		"Content-Length: 99999999999999999999", "Connection:", "X-A:", "Content-Encoding: gzip\r\n ",
		"Transfer-Encoding:chunked", "transfer-encoding :CHUNKED\t", "Connection: close\r\n\tkeep-alive"}
	bodies := []string{"", "ok", "2\r\nok\r\n0\r\n\r\n", "2\r\nok\r\n0\r\nX-Sum: 1\r\n\r\n", "2\r\nok\r\n0\r\nHost: x\r\n\r\n",
		"2;a=b\r\nok\r\n0\r\n\r\n", "0\r\n\r\n", "2\r\nok\r\n0\r\nX-A: b\r\n c\r\n\r\n",
		"2\r\nok\r\n0\r\nX-A : b\r\n\r\n", "2\r\nok\r\n0\r\nX-Sum: 1\n\n", "2\r\nok\r\n0\r\n\n", "2 \r\nok\r\n0\r\n\r\n", "2 ;x\r\nok\r\n0\r\n\r\n",
		"2\r\nok\r\n0\r\nT: a\r\n b\n\n", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"}
	diffs, br := 0, bufio.NewReaderSize(nil, fasthttpHead)
	for _, status := range statuses {
		for i, one := range fields {
			for _, two := range fields[i:] {
				for _, body := range bodies {
					for _, lf := range []bool{false, true} {
						in := status + "\r\n"
						for _, field := range []string{one, two} {
							if field != "" {
								in += field + "\r\n"
							}
						}
						in += "\r\n" + body
						if lf {
							in = strings.ReplaceAll(in, "\r\n", "\n")
						}
						for _, head := range []bool{false, true} {
							err := readsAsFasthttp([]byte(in), head, br)
							if err == nil {
								err = readsAsNetHTTP([]byte(in), head)
							}
							if err != nil && diffs < 20 {
								diffs++
								t.Errorf("%q (HEAD %v): %v", in, head, err)
							}
						}
					}
				}
			}
		}
	}
}
