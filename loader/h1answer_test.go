package loader

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// h1Result is what following an answer found: its figures, how many bytes after it were not
// its own, whether it needed the connection's close to end, and its error.
type h1Result struct {
	status  int
	http10  bool
	body    int64
	close   bool
	interim int
	rest    int  // bytes fed after the end of the answer
	atClose bool // done came from closed(), not from feed
	err     error
}

// followH1 feeds in to a fresh answer in parts of the given sizes (0 is an empty feed; after
// the last part, the rest in one feed), then tells it the connection closed if it is not done.
func followH1(a *h1Answer, in []byte, head bool, maxHead int, maxBody int64, parts ...int) h1Result {
	a.reset(head, maxHead, maxBody)
	var r h1Result
	fed, done := 0, false
	for i := 0; fed < len(in) && !done && r.err == nil; i++ {
		size := len(in) - fed
		if i < len(parts) && parts[i] < size {
			size = parts[i]
		}
		var n int
		n, done, r.err = a.feed(in[fed : fed+size])
		if r.err == nil && n != size && !done {
			r.err = errors.New("feed took part of its bytes without being done")
		}
		fed += n
	}
	if !done && r.err == nil {
		done, r.err = a.closed()
		r.atClose = done
	}
	if r.err == nil {
		r.rest = len(in) - fed
	}
	r.status, r.http10, r.body, r.close, r.interim = a.status, a.http10, a.body, a.close, a.interim
	return r
}

// bytewise is the parts of n bytes fed one at a time.
func bytewise(n int) []int {
	parts := make([]int, n)
	for i := range parts {
		parts[i] = 1
	}
	return parts
}

// sameH1Result tells whether got is want, errors compared with errors.Is.
func sameH1Result(got, want h1Result) bool {
	if !errors.Is(got.err, want.err) || (got.err == nil) != (want.err == nil) {
		return false
	}
	got.err, want.err = nil, nil
	return got == want
}

const nginxAnswer = "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Sun, 06 Dec 2026 17:00:00 GMT\r\n" +
	"Content-Type: text/plain\r\nContent-Length: 100\r\nLast-Modified: Sun, 06 Dec 2026 16:00:00 GMT\r\n" +
	"Connection: keep-alive\r\nETag: \"6933f0a0-64\"\r\nAccept-Ranges: bytes\r\n\r\n"

// h1Case is an answer as it arrives, and what following it must find.
type h1Case struct {
	name    string
	in      string
	head    bool  // the request was HEAD
	maxHead int   // 0: 16 KiB
	maxBody int64 // 0: no limit
	want    h1Result
}

func h1Cases() []h1Case {
	ok := func(status int, body int64) h1Result { return h1Result{status: status, body: body} }
	chunkedHead := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	interims := func(n int) string { return strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", n) }
	return []h1Case{
		// Bodies by Content-Length.
		{name: "content-length", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", want: ok(200, 5)},
		{name: "content-length 0", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", want: ok(200, 0)},
		{name: "nginx", in: nginxAnswer + strings.Repeat("x", 100), want: ok(200, 100)},
		{name: "field names in any case", in: "HTTP/1.1 404 Not Found\r\ncOnTeNt-LeNgTh: 3\r\nCONNECTION: CLOSE\r\n\r\nabc",
			want: h1Result{status: 404, body: 3, close: true}},
		{name: "space before the colon", in: "HTTP/1.1 200 OK\r\nContent-Length  : 2\r\nX-A : b\r\n\r\nok", want: ok(200, 2)},
		{name: "space inside a name", in: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX A: b\r\n\r\nok", want: h1Result{status: 200, body: 2, close: true}},
		{name: "obs-text in a value", in: "HTTP/1.1 200 OK\r\nX-A: \x80\xff\r\nContent-Length: 2\r\n\r\nok", want: ok(200, 2)},
		{name: "largest content-length", in: "HTTP/1.1 200 OK\r\nContent-Length: 4611686018427387904\r\n\r\n", head: true, want: ok(200, 0)},
		{name: "bytes after the answer", in: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n",
			want: h1Result{status: 200, body: 2, rest: 19}},
		{name: "status without reason", in: "HTTP/1.1 201\r\nContent-Length: 1\r\n\r\nx", want: ok(201, 1)},
		{name: "status with empty reason", in: "HTTP/1.1 202 \r\nContent-Length: 1\r\n\r\nx", want: ok(202, 1)},
		{name: "any 3-digit status", in: "HTTP/1.1 999 Odd \x01\x80 reason\r\nContent-Length: 0\r\n\r\n", want: ok(999, 0)},
		{name: "LF line ends", in: "HTTP/1.1 200 OK\nContent-Length: 2\nA: b\n\nok", want: ok(200, 2)},
		{name: "mixed line ends", in: "HTTP/1.1 200 OK\r\nContent-Length: 2\nA: b\r\n\nok", want: ok(200, 2)},
		{name: "empty and odd values", in: "HTTP/1.1 200 OK\r\nX-Empty:\r\nX-Tab:\tv\t\r\nX-Colon: a:b\r\nContent-Length: 1\r\n\r\nx", want: ok(200, 1)},

		// Chunked bodies.
		{name: "chunked", in: chunkedHead + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", want: ok(200, 11)},
		{name: "chunked hex sizes", in: chunkedHead + "A\r\n0123456789\r\n00b\r\n0123456789a\r\n000\r\n\r\n", want: ok(200, 21)},
		{name: "chunk extensions", in: chunkedHead + "5;a=b;c=\"d;e\"\r\nhello\r\n3;x \t\r\nabc\r\n4\t \r\nabcd\r\n0;last\r\n\r\n", want: ok(200, 12)},
		{name: "trailers", in: chunkedHead + "2\r\nok\r\n0\r\nX-Sum: 1\r\nServer-Timing: db;dur=53\r\n\r\n", want: ok(200, 2)},
		{name: "chunked after other codings", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\ntransfer-encoding: , CHUNKED ,\r\n\r\n2\r\nok\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1TE}},
		{name: "chunked in any case", in: "HTTP/1.1 200 OK\r\ntransfer-encoding: CHUNKED\r\n\r\n2\r\nok\r\n0\r\n\r\n", want: ok(200, 2)},
		{name: "obs-fold", in: "HTTP/1.1 200 OK\r\nA: b\r\n c\r\n \r\nContent-Length: 2\r\n\r\nok", want: ok(200, 2)},
		{name: "folded content-length", in: "HTTP/1.1 200 OK\r\nContent-Length:\r\n\t2\r\n\r\nok", want: ok(200, 2)},
		{name: "folded transfer-encoding", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", want: ok(200, 2)},
		{name: "upgrade in a second connection field", in: "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nConnection: upgrade\r\n\r\n", head: true, want: h1Result{status: 200, close: true}},
		{name: "upgrade after a connection field of close alone", in: "HTTP/1.1 200 OK\r\nConnection: close\r\nConnection: upgrade\r\n\r\n", head: true, want: h1Result{status: 200, close: true}},
		{name: "keep-alive in a second connection field", in: "HTTP/1.0 200 OK\r\nConnection: x\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, http10: true, body: 2, close: true}},
		{name: "keep-alive after an empty connection field", in: "HTTP/1.0 200 OK\r\nConnection:\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, http10: true, body: 2, close: true}},
		{name: "folded connection", in: "HTTP/1.1 200 OK\r\nConnection: upgrade,\r\n close\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, body: 2, close: true}},
		{name: "folded trailer", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nT: a\r\n b\r\n\r\n", want: ok(200, 2)},
		{name: "HTTP/1.0 transfer-encoding ignored", in: "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", want: h1Result{status: 200, http10: true, body: 5, close: true}},
		{name: "transfer-encoding over content-length", in: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\nnext", want: h1Result{status: 200, body: 2, rest: 4}},
		{name: "chunked, then more bytes", in: chunkedHead + "0\r\n\r\nHTTP", want: h1Result{status: 200, rest: 4}},

		// Bodies delimited by the close.
		{name: "no length: read to the close", in: "HTTP/1.1 200 OK\r\n\r\nall of it", want: h1Result{status: 200, body: 9, close: true, atClose: true}},
		{name: "chunked not last", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1TE}},
		{name: "HTTP/1.0, no length", in: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\nabc", want: h1Result{status: 200, http10: true, body: 3, close: true, atClose: true}},
		{name: "empty body to the close", in: "HTTP/1.1 200 OK\r\n\r\n", want: h1Result{status: 200, close: true, atClose: true}},

		// No body.
		{name: "HEAD", in: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", head: true, want: ok(200, 0)},
		{name: "HEAD, chunked", in: chunkedHead + "0\r\n\r\n", head: true, want: h1Result{status: 200, rest: 5}},
		{name: "HEAD, HTTP/1.0 chunked", in: "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", head: true, want: h1Result{status: 200, http10: true, close: true}},
		{name: "204", in: "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello", want: h1Result{status: 204, rest: 5}},
		{name: "304", in: "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", want: ok(304, 0)},

		// Informational answers.
		{name: "100 then 200", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, body: 2, interim: 1}},
		{name: "103 and 100, then 200", in: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nContent-Length: 9\r\n\r\nHTTP/1.0 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
			want: h1Result{status: 200, interim: 2}},
		{name: "100 interim answers", in: interims(100) + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", want: h1Result{status: 200, interim: 100}},
		{name: "101 interim answers", in: interims(101) + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", want: h1Result{status: 100, interim: 101, err: errTooManyInterim}},
		{name: "101 switching", in: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nContent-Length: 5\r\n\r\n\x81\x05hello",
			want: h1Result{status: 101, close: true, rest: 7}},

		// Keeping the connection.
		{name: "HTTP/1.0 closes", in: "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, http10: true, body: 2, close: true}},
		{name: "HTTP/1.0 keep-alive", in: "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, http10: true, body: 2}},
		{name: "HTTP/1.0 keep-alive, close", in: "HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, http10: true, body: 2, close: true}},
		{name: "connection: close", in: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, body: 2, close: true}},
		{name: "connection list with close", in: "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nConnection: Upgrade ,\tClose\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, body: 2, close: true}},
		{name: "connection list without close", in: "HTTP/1.1 200 OK\r\nConnection: keep-alive, closed, upgrade\r\nContent-Length: 2\r\n\r\nok", want: ok(200, 2)},

		// Malformed status lines.
		{name: "HTTP/2.0", in: "HTTP/2.0 200 OK\r\n\r\n", want: h1Result{status: 200, http10: true, close: true, atClose: true}},
		{name: "HTTP/0.9", in: "HTTP/0.9 200 OK\r\n\r\n", want: h1Result{status: 200, http10: true, close: true, atClose: true}},
		{name: "HTTP/1.2 kept alive", in: "HTTP/1.2 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, http10: true, body: 2}},
		{name: "HTTP/2", in: "HTTP/2 200 OK\r\n\r\n", want: h1Result{err: errH1Version}},
		{name: "empty lines before the status line", in: "\r\n\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", want: ok(200, 2)},
		{name: "lowercase http", in: "http/1.1 200 OK\r\n\r\n", want: h1Result{err: errH1Version}},
		{name: "garbage", in: "<html>hello</html>\n", want: h1Result{err: errH1Version}},
		{name: "version alone", in: "HTTP/1.1\r\n\r\n", want: h1Result{err: errH1Version}},
		{name: "version and a space", in: "HTTP/1.1 \r\n\r\n", want: h1Result{err: errH1StatusLine}},
		{name: "2-digit status", in: "HTTP/1.1 20 OK\r\n\r\n", want: h1Result{err: errH1StatusLine}},
		{name: "4-digit status", in: "HTTP/1.1 2000 OK\r\n\r\n", want: h1Result{err: errH1StatusLine}},
		{name: "two spaces", in: "HTTP/1.1  200 OK\r\n\r\n", want: h1Result{status: 200, close: true, atClose: true}},
		{name: "signed status", in: "HTTP/1.1 +20 OK\r\n\r\n", want: h1Result{err: errH1StatusLine}},
		{name: "status below 100", in: "HTTP/1.1 099 Odd\r\nContent-Length: 0\r\n\r\n", want: h1Result{err: errBadStatus}},
		{name: "status 000", in: "HTTP/1.1 000\r\n\r\n", want: h1Result{err: errBadStatus}},
		{name: "bare CR in the reason", in: "HTTP/1.1 200 O\rK\r\n\r\n", want: h1Result{status: 200, close: true, atClose: true}},
		{name: "bare CR in the status code", in: "HTTP/1.1 2\r0 OK\r\n\r\n", want: h1Result{err: errH1StatusLine}},

		// Malformed header lines.
		{name: "bare CR in a value", in: "HTTP/1.1 200 OK\r\nA: b\rc\r\n\r\n", want: h1Result{status: 200, err: errH1BareCR}},
		{name: "CR CR LF", in: "HTTP/1.1 200 OK\r\nA: b\r\r\n\r\n", want: h1Result{status: 200, err: errH1BareCR}},
		{name: "tab before the colon", in: "HTTP/1.1 200 OK\r\nContent-Length\t: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1FieldLine}},
		{name: "DEL in a value", in: "HTTP/1.1 200 OK\r\nX-A: b\x7f\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1FieldLine}},
		{name: "no colon", in: "HTTP/1.1 200 OK\r\nContent-Length 2\r\n\r\nok", want: h1Result{status: 200, err: errH1FieldLine}},
		{name: "empty name", in: "HTTP/1.1 200 OK\r\n: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1FieldLine}},
		{name: "whitespace line after the status line", in: "HTTP/1.1 200 OK\r\n A: b\r\nContent-Length: 0\r\n\r\n", want: h1Result{status: 200, err: errH1Fold}},
		{name: "folded line with a control byte", in: "HTTP/1.1 200 OK\r\nA: b\r\n \x01\r\n\r\n", want: h1Result{status: 200, err: errH1FieldLine}},
		{name: "folded line with a CR", in: "HTTP/1.1 200 OK\r\nA: b\r\n\tc\rd\r\n\r\n", want: h1Result{status: 200, err: errH1BareCR}},
		{name: "folded content-length joined", in: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n 0\r\n\r\n0123456789", want: h1Result{status: 200, err: errH1Length}},
		{name: "whitespace line before the blank line", in: "HTTP/1.1 200 OK\r\n \r\n\r\n", want: h1Result{status: 200, err: errH1Fold}},
		{name: "content-length then a fold of whitespace", in: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n \r\n\r\nok", want: h1Result{status: 200, err: errH1Length}},
		{name: "transfer-encoding then a fold of whitespace", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\t\r\n\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1TE}},
		{name: "empty content-length, then folds", in: "HTTP/1.1 200 OK\r\nContent-Length:\r\n \r\n 2\r\n\r\nok", want: ok(200, 2)},

		// Trailers and the Trailer field, as the goroutine engine (fasthttp) reads them.
		{name: "trailer field", in: "HTTP/1.1 200 OK\r\nTrailer: Server-Timing, X-Sum,\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nServer-Timing: db;dur=5\r\nX-Sum: 1\r\n\r\n", want: ok(200, 2)},
		{name: "empty trailer field", in: "HTTP/1.1 200 OK\r\nTrailer:\r\nContent-Length: 2\r\n\r\nok", want: ok(200, 2)},
		{name: "trailer field naming a framing field", in: "HTTP/1.1 200 OK\r\nTrailer: X-A, content-length\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1Trailer}},
		{name: "trailer field naming x-forwarded-for", in: "HTTP/1.1 200 OK\r\nTrailer: X-Forwarded-For\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1Trailer}},
		{name: "trailer field with an empty name", in: "HTTP/1.1 200 OK\r\nTrailer: a,,b\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1Trailer}},
		{name: "trailer field with a space in a name", in: "HTTP/1.1 200 OK\r\nTrailer: a b\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1Trailer}},
		{name: "folded trailer field", in: "HTTP/1.1 200 OK\r\nTrailer: a,\r\n Host\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1Trailer}},
		{name: "trailer field in an interim answer", in: "HTTP/1.1 103 Early Hints\r\nTrailer: Host\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 103, err: errH1Trailer}},
		{name: "trailer field in HTTP/1.0", in: "HTTP/1.0 200 OK\r\nTrailer: Content-Type\r\n\r\nok", want: h1Result{status: 200, http10: true, err: errH1Trailer}},
		{name: "content-type trailer", in: chunkedHead + "2\r\nok\r\n0\r\nContent-Type: text/html\r\n\r\n", want: h1Result{status: 200, body: 2, err: errH1Trailer}},
		{name: "x-real-ip trailer", in: chunkedHead + "2\r\nok\r\n0\r\nX-Real-IPs : a\r\n\r\n", want: h1Result{status: 200, body: 2, err: errH1Trailer}},
		{name: "set-cookie trailer", in: chunkedHead + "0\r\nSET-COOKIE: a=b\r\n\r\n", want: h1Result{status: 200, err: errH1Trailer}},
		{name: "HTTP/1.0 chunked", in: "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", want: h1Result{status: 200, http10: true, body: 5, close: true, atClose: true}},
		{name: "identity transfer-encoding", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\nContent-Length: 2\r\n\r\nok", want: h1Result{status: 200, err: errH1TE}},

		// Malformed lengths.
		{name: "content-length not a number", in: "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n", want: h1Result{status: 200, err: errH1Length}},
		{name: "content-length negative", in: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", want: h1Result{status: 200, err: errH1Length}},
		{name: "content-length signed", in: "HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\nx", want: h1Result{status: 200, err: errH1Length}},
		{name: "content-length empty", in: "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n", want: h1Result{status: 200, err: errH1Length}},
		{name: "content-length with spaces inside", in: "HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\n", want: h1Result{status: 200, err: errH1Length}},
		{name: "content-length empty element", in: "HTTP/1.1 200 OK\r\nContent-Length: 2,\r\n\r\nok", want: h1Result{status: 200, err: errH1Length}},
		{name: "content-length overflow", in: "HTTP/1.1 200 OK\r\nContent-Length: 4611686018427387905\r\n\r\n", head: true, want: h1Result{status: 200, err: errH1Length}},
		{name: "content-length far over", in: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", want: h1Result{status: 200, err: errH1Length}},
		{name: "content-lengths differ", in: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok", want: h1Result{status: 200, err: errH1Lengths}},
		{name: "repeated content-length", in: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length:3 \r\n\r\nabc", want: h1Result{status: 200, err: errH1Lengths}},
		{name: "content-length list", in: "HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc", want: h1Result{status: 200, err: errH1Length}},
		{name: "chunk line ending in LF", in: chunkedHead + "5\nhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "last chunk line ending in LF", in: chunkedHead + "5\r\nhello\r\n0\n\n", want: h1Result{status: 200, body: 5, err: errH1ChunkSize}},
		{name: "chunk extension ending in LF", in: chunkedHead + "5;a\nhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "whitespace before a chunk extension", in: chunkedHead + "5 ;a\r\nhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "content-length checked on 204", in: "HTTP/1.1 204 No Content\r\nContent-Length: x\r\n\r\n", want: h1Result{status: 204, err: errH1Length}},

		// Malformed chunks.
		{name: "chunk size not hex", in: chunkedHead + "x\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "chunk size empty", in: chunkedHead + "\r\nok\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "chunk size 0x", in: chunkedHead + "0x5\r\nhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "chunk size of 15 digits", in: chunkedHead + "00000000000000f\r\n", want: h1Result{status: 200, err: io.ErrUnexpectedEOF}},
		{name: "chunk size of 16 digits", in: chunkedHead + "000000000000000f\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "chunk size then a word", in: chunkedHead + "5 x\r\nhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "bare CR after the chunk size", in: chunkedHead + "5\rhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "bare CR in an extension", in: chunkedHead + "5;a\rb\r\nhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "chunk line too long", in: chunkedHead + "5;" + strings.Repeat("e", h1MaxChunkLine) + "\r\nhello\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1ChunkSize}},
		{name: "chunk data too long", in: chunkedHead + "5\r\nhelloX\r\n0\r\n\r\n", want: h1Result{status: 200, body: 5, err: errH1ChunkEnd}},
		{name: "chunk data then LF", in: chunkedHead + "5\r\nhello\n0\r\n\r\n", want: h1Result{status: 200, body: 5, err: errH1ChunkEnd}},
		{name: "malformed trailer", in: chunkedHead + "0\r\nno colon\r\n\r\n", want: h1Result{status: 200, err: errH1FieldLine}},

		// Limits.
		{name: "head as large as the limit", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", maxHead: 38, want: ok(200, 0)},
		{name: "head too large", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", maxHead: 37, want: h1Result{status: 200, err: errH1HeadTooLarge}},
		{name: "line too large", in: "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("v", 100) + "\r\n\r\n", maxHead: 64, want: h1Result{status: 200, err: errH1HeadTooLarge}},
		{name: "each head has the limit", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", maxHead: 38, want: h1Result{status: 200, interim: 1}},
		{name: "trailers as large as the limit", in: chunkedHead + "0\r\nX: " + strings.Repeat("v", 40) + "\r\n\r\n", maxHead: len(chunkedHead), want: ok(200, 0)},
		{name: "trailers too large", in: chunkedHead + "0\r\nX: " + strings.Repeat("v", 41) + "\r\n\r\n", maxHead: len(chunkedHead), want: h1Result{status: 200, err: errH1HeadTooLarge}},
		{name: "body as large as the limit", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", maxBody: 5, want: ok(200, 5)},
		{name: "body too large", in: "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello!", maxBody: 5, want: h1Result{status: 200, body: 5, err: errTooLarge}},
		{name: "chunked body too large", in: chunkedHead + "3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n", maxBody: 5, want: h1Result{status: 200, body: 5, err: errTooLarge}},
		{name: "body to the close too large", in: "HTTP/1.1 200 OK\r\n\r\nhello!", maxBody: 5, want: h1Result{status: 200, body: 5, close: true, err: errTooLarge}},

		// Cut short.
		{name: "no byte", in: "", want: h1Result{err: errH1NoAnswer}},
		{name: "closed in the status line", in: "HTTP/1.1 20", want: h1Result{err: errH1HeadCut}},
		{name: "closed in the head", in: "HTTP/1.1 200 OK\r\nContent-Len", want: h1Result{status: 200, err: errH1HeadCut}},
		{name: "closed after an interim answer", in: "HTTP/1.1 100 Continue\r\n\r\n", want: h1Result{status: 100, interim: 1, err: errH1HeadCut}},
		{name: "NUL in a value", in: "HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 0\r\n\r\n", want: h1Result{status: 200, err: errH1FieldLine}},
		{name: "identity, then chunked", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1TE}},
		{name: "two transfer-encodings", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", want: h1Result{status: 200, err: errH1TE}},
		{name: "closed in the body", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", want: h1Result{status: 200, body: 3, err: io.ErrUnexpectedEOF}},
		{name: "closed in a chunk", in: chunkedHead + "5\r\nhel", want: h1Result{status: 200, body: 3, err: io.ErrUnexpectedEOF}},
		{name: "closed before the trailers end", in: chunkedHead + "0\r\n", want: h1Result{status: 200, err: io.ErrUnexpectedEOF}},
	}
}

// An answer is followed the same however its bytes arrive: in one read, one byte a read, or
// in two reads split anywhere.
func TestH1Answer(t *testing.T) {
	t.Parallel()
	for _, tc := range h1Cases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			maxHead := tc.maxHead
			if maxHead == 0 {
				maxHead = 16 << 10
			}
			in := []byte(tc.in)
			var a h1Answer
			check := func(how string, parts ...int) {
				t.Helper()
				if got := followH1(&a, in, tc.head, maxHead, tc.maxBody, parts...); !sameH1Result(got, tc.want) {
					t.Fatalf("%s: got %+v\nwant %+v", how, got, tc.want)
				}
			}
			check("one read")
			check("a byte a read", bytewise(len(in))...)
			for i := 1; i < len(in) && i < 300; i++ {
				check("split", i)
			}
		})
	}
}

// Answers that follow one another on a kept-alive connection are read with one h1Answer,
// reset between them; started tells the first byte of each.
func TestH1AnswerKeptAlive(t *testing.T) {
	t.Parallel()
	in := []byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" +
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nnot\r\n0\r\n\r\n" +
		"HTTP/1.1 204 No Content\r\n\r\n")
	want := []h1Result{{status: 200, body: 2}, {status: 404, body: 3, interim: 1}, {status: 204}}
	var a h1Answer
	for _, size := range []int{len(in), 1, 7} {
		p := in
		for i, w := range want {
			a.reset(false, 1024, 0)
			if a.started() {
				t.Fatal("started before its first byte")
			}
			done := false
			for !done {
				n, d, err := a.feed(p[:min(size, len(p))])
				if err != nil || n == 0 {
					t.Fatalf("reads of %d, answer %d: n %d, err %v", size, i, n, err)
				}
				if !a.started() {
					t.Fatal("not started after its first byte")
				}
				p, done = p[n:], d
			}
			got := h1Result{status: a.status, body: a.body, interim: a.interim, close: a.close}
			if got != w {
				t.Fatalf("reads of %d, answer %d: got %+v, want %+v", size, i, got, w)
			}
		}
		if len(p) != 0 {
			t.Fatalf("reads of %d: %d bytes left", size, len(p))
		}
	}
}

// Each way an answer fails is reported as the kind of failure the loader counts it as.
func TestH1AnswerErrorsClassify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want ErrKind
	}{
		{errH1Version, ErrBadResponse},
		{errH1StatusLine, ErrBadResponse},
		{errH1StatusBelow, ErrBadResponse},
		{errH1BareCR, ErrBadResponse},
		{errH1FieldLine, ErrBadResponse},
		{errH1Fold, ErrBadResponse},
		{errH1Length, ErrBadResponse},
		{errH1Lengths, ErrBadResponse},
		{errH1TE, ErrBadResponse},
		{errH1ChunkSize, ErrBadResponse},
		{errH1ChunkEnd, ErrBadResponse},
		{errH1HeadTooLarge, ErrBadResponse},
		{io.ErrUnexpectedEOF, ErrBadResponse},
		{errTooLarge, ErrTooLarge},
		{errH1NoAnswer, ErrClosed},
		{errTooManyInterim, ErrTooManyInterim},
	} {
		if got := classify(tc.err); got != tc.want {
			t.Errorf("classify(%q) = %v, want %v", tc.err, got, tc.want)
		}
	}
	// Reports describe the chunk faults as such.
	for _, err := range []error{errH1ChunkSize, errH1ChunkEnd} {
		if got := badResponseMessage(err); got != "cannot read response body: broken chunked encoding" {
			t.Errorf("badResponseMessage(%q) = %q", err, got)
		}
	}
}

// A typical answer in one read, and one that comes a byte a read once its buffer has grown,
// cost no allocation.
func TestH1AnswerAllocs(t *testing.T) {
	in := []byte(nginxAnswer + strings.Repeat("x", 100))
	chunked := []byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x\r\nhello\r\n0\r\nA: b\r\n\r\n")
	var a h1Answer
	followH1(&a, in, false, 16<<10, 0, bytewise(len(in))...) // grows the line buffer once
	parts := bytewise(len(in))
	for name, follow := range map[string]func() h1Result{
		"one read":     func() h1Result { return followH1(&a, in, false, 16<<10, 0) },
		"a byte":       func() h1Result { return followH1(&a, in, false, 16<<10, 0, parts...) },
		"chunked":      func() h1Result { return followH1(&a, chunked, false, 16<<10, 1<<20) },
		"chunked byte": func() h1Result { return followH1(&a, chunked, false, 16<<10, 1<<20, parts...) },
	} {
		var r h1Result
		if allocs := testing.AllocsPerRun(100, func() { r = follow() }); allocs != 0 {
			t.Errorf("%s: %v allocations per answer", name, allocs)
		}
		if r.err != nil || r.status != 200 {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

func BenchmarkH1AnswerFeed(b *testing.B) {
	in := []byte(nginxAnswer + strings.Repeat("x", 100))
	var a h1Answer
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		a.reset(false, 16<<10, 0)
		if n, done, err := a.feed(in); n != len(in) || !done || err != nil {
			b.Fatal(n, done, err)
		}
	}
}

// TestH1AnswerKeepsWithinItsBudget: answers keep body bytes from one shared budget, give them
// back at reset, and tell when it ran out.
func TestH1AnswerKeepsWithinItsBudget(t *testing.T) {
	t.Parallel()
	budget := 8
	answer := func() *h1Answer {
		a := &h1Answer{budget: &budget, keepFor: func() int { return 100 }}
		a.reset(false, 1024, 0)
		return a
	}
	in := []byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
	a, b := answer(), answer()
	for _, x := range []*h1Answer{a, b} {
		if _, done, err := x.feed(in); !done || err != nil {
			t.Fatalf("done %v, err %v", done, err)
		}
	}
	if string(a.kept) != "hello" || !a.keptAll || a.starved {
		t.Errorf("first answer kept %q (all %v, starved %v), want all of it", a.kept, a.keptAll, a.starved)
	}
	if string(b.kept) != "hel" || b.keptAll || !b.starved || budget != 0 {
		t.Errorf("second answer kept %q (all %v, starved %v), budget left %d; want the 3 bytes left", b.kept, b.keptAll, b.starved, budget)
	}
	a.reset(false, 1024, 0)
	b.reset(false, 1024, 0)
	if budget != 8 {
		t.Errorf("budget %d after both reset, want 8", budget)
	}
}
