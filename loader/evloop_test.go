//go:build linux

package loader

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// loopSummary is what a run's results say, apart from their times, sorted: what the two
// engines must agree on.
func loopSummary(results []Result) []string {
	out := make([]string, 0, len(results))
	for _, r := range results {
		out = append(out, fmt.Sprintf("t%d u%d %d %s body=%d/%d resent=%v http10=%v", r.Target, r.User, r.Status,
			r.Err, r.BodyBytes, r.Decoded, r.Resent, r.HTTP10))
	}
	slices.Sort(out)
	return out
}

// runBothEngines runs cfg on targets with the event loop, then with the goroutine engine, and
// fails unless the first took the loop.
func runBothEngines(t *testing.T, cfg Config, targets []urls.Target) (loopRes, goRes []Result, loopOut, goOut Outcome) {
	t.Helper()
	l, loopRes, loopOut := runLoader(t, cfg, targets)
	if !l.loopable() {
		t.Fatal("the run did not take the event loop")
	}
	cfg.noLoop = true
	_, goRes, goOut = runLoader(t, cfg, targets)
	return loopRes, goRes, loopOut, goOut
}

// TestLoopAnswersAsTheGoroutineEngine runs the same plans through both engines against servers
// that answer in every way HTTP/1.1 allows, and some it does not: the results must be the same,
// request for request.
func TestLoopAnswersAsTheGoroutineEngine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		answer answerFunc
		method string
		cfg    func(*Config)
		// racy marks a server the goroutine engine's results depend on timing with; the loop's
		// must then be loop.
		racy bool
		loop []string
	}{
		{name: "content length", answer: func(c net.Conn, _ *http.Request, _ int) bool { return writeOK(c) }},
		{name: "chunked", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\n")},
		{name: "head", method: "HEAD", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")},
		{name: "keep-alive in a second connection field", answer: answeringOnce("HTTP/1.0 200 OK\r\nConnection: x\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok")},
		{name: "no content and not modified", answer: func(c net.Conn, r *http.Request, _ int) bool {
			code := map[string]string{"/a": "204 No Content", "/b": "304 Not Modified"}[r.URL.Path]
			_, err := io.WriteString(c, "HTTP/1.1 "+code+"\r\nContent-Length: 5\r\n\r\n")
			return err == nil
		}},
		{name: "interim answers first", answer: answering("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "connection close", answer: answeringOnce("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye")},
		{name: "body to the close", answer: answeringOnce("HTTP/1.1 200 OK\r\n\r\nuntil the end")},
		{name: "http 1.0", answer: answeringOnce("HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nold!")},
		{name: "http 1.0 kept alive", answer: answering("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 4\r\n\r\nold!")},
		{name: "bare line feeds", answer: answering("HTTP/1.1 404 Not Found\nContent-Length: 3\n\nno!")},
		{name: "interim answer, then a head with bare line feeds", answer: answering("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\nContent-Length: 2\n\nok")},
		{name: "interim answers with bare line feeds", answer: answering("HTTP/1.1 100 Continue\n\nHTTP/1.1  102\n\nHTTP/1.1 200 OK\nContent-Length: 2\n\nok")},
		{name: "empty line before a head with bare line feeds", answer: answering("\nHTTP/1.1 200 OK\nContent-Length: 2\n\nok")},
		{name: "folded header lines", answer: answering("HTTP/1.1 200 OK\r\nX-A: b\r\n c\r\nContent-Length:\r\n 2\r\nConnection: x,\r\n\tkeep-alive\r\n\r\nok")},
		{name: "content-length list", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok")},
		{name: "content-length twice", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok")},
		{name: "transfer-encoding and content-length", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 9\r\n\r\n2\r\nok\r\n0\r\n\r\n")},
		{name: "status without reason", answer: answering("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok")},
		{name: "space before a colon", answer: answering("HTTP/1.1 200 OK\r\nX-A : b\r\nContent-Length: 2\r\n\r\nok")},
		{name: "transfer-encoding list", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")},
		{name: "whitespace before a chunk extension", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 ; a=b\r\nok\r\n0\r\n\r\n")},
		{name: "chunk lines ending in LF", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\n0\n\n")},
		{name: "NUL in a value", answer: answering("HTTP/1.1 200 OK\r\nX-A: b\x00c\r\nContent-Length: 2\r\n\r\nok")},
		{name: "obs-text in a value", answer: answering("HTTP/1.1 200 OK\r\nX-A: b\xffc\r\nContent-Length: 2\r\n\r\nok")},
		{name: "DEL in a value", answer: answering("HTTP/1.1 200 OK\r\nX-A: b\x7fc\r\nContent-Length: 2\r\n\r\nok")},
		{name: "space inside a name", answer: answering("HTTP/1.1 200 OK\r\nX A: b\r\nContent-Length: 2\r\n\r\nok")},
		{name: "tab before a colon", answer: answering("HTTP/1.1 200 OK\r\nX-A\t: b\r\nContent-Length: 2\r\n\r\nok")},
		{name: "space before content-length's colon", answer: answering("HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok")},
		{name: "chunk extension", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=b\r\nok\r\n0\r\n\r\n")},
		{name: "whitespace after a chunk size", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\nok\r\n0\r\n\r\n")},
		{name: "CR in the reason", answer: answering("HTTP/1.1 200 O\rK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "two spaces before the status", answer: answering("HTTP/1.1  200 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "lowercase version", answer: answering("http/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "HTTP/1.2", answer: answering("HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "HTTP/2 in a status line", answer: answering("HTTP/2 200 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "Connection: Close", answer: answering("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 2\r\n\r\nok")},
		{name: "connection list", answer: answering("HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 2\r\n\r\nok")},
		{name: "transfer-encoding in capitals", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked \r\n\r\n2\r\nok\r\n0\r\n\r\n")},
		{name: "transfer-encoding in HTTP/1.0", answer: answeringOnce("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")},
		{name: "trailer without a colon", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nT a\r\n\r\n")},
		{name: "trailers with bare line feeds", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nT: a\nU: b\n\n")},
		{name: "last chunk then a bare line feed", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\n")},
		{name: "head answer saying chunked", method: "HEAD", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")},
		{name: "trailers a server may send", answer: answering("HTTP/1.1 200 OK\r\nTrailer: Server-Timing, X-Sum\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nServer-Timing: db;dur=5\r\nX-Sum: 1\r\n\r\n")},
		{name: "trailer that cannot be one", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nContent-Type: text/html\r\n\r\n")},
		{name: "trailer field naming one that cannot be a trailer", answer: answering("HTTP/1.1 200 OK\r\nTrailer: Host\r\nContent-Length: 2\r\n\r\nok")},
		{name: "trailer field with an empty name", answer: answering("HTTP/1.1 200 OK\r\nTrailer: a, ,b\r\nContent-Length: 2\r\n\r\nok")},
		{name: "content-length then a fold of whitespace", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n \r\n\r\nok")},
		{name: "space inside a trailer's name", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nT A: b\r\n\r\n")},
		{name: "content-length with leading zeros", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 002\r\n\r\nok")},
		{name: "signed content-length", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok")},
		{name: "304 with transfer-encoding", answer: answering("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n")},
		{name: "interim answer with a content-length", answer: answering("HTTP/1.1 103 Early\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "empty name", answer: answering("HTTP/1.1 200 OK\r\n: x\r\nContent-Length: 2\r\n\r\nok")},
		{name: "header line without a colon", answer: answering("HTTP/1.1 200 OK\r\nxyz\r\nContent-Length: 2\r\n\r\nok")},
		{name: "underscore in a name", answer: answering("HTTP/1.1 200 OK\r\nX_A: b\r\nContent-Length: 2\r\n\r\nok")},
		{name: "UTF-8 in a name", answer: answering("HTTP/1.1 200 OK\r\nX-\xc3\xa9: b\r\nContent-Length: 2\r\n\r\nok")},
		{name: "4-digit status", answer: answering("HTTP/1.1 1000 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "status below 100", answer: answering("HTTP/1.1 099 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "chunk size in capitals", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n")},
		{name: "chunk size with leading zeros", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0002\r\nok\r\n0\r\n\r\n")},
		{name: "chunk data ending in LF", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\n0\r\n\r\n")},
		{name: "CR in a chunk extension", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a\rb\r\nok\r\n0\r\n\r\n")},
		{name: "empty line before the status line", answer: answering("\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")},
		{name: "head ending in LF CRLF", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 2\n\r\nok")},
		{name: "identity transfer-encoding", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\nok")},
		{name: "transfer-encoding twice", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")},
		{name: "closed after each answer", answer: func(c net.Conn, _ *http.Request, _ int) bool {
			writeOK(c)
			return false // without a word: the next request on the connection is resent
		}, racy: true, loop: racyCloses()},
		{name: "closed before answering", answer: func(net.Conn, *http.Request, int) bool { return false }},
		{name: "cut short in the body", answer: answeringOnce("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")},
		{name: "cut short in the head", answer: answeringOnce("HTTP/1.1 200 OK\r\nContent-Le")},
		{name: "bad status line", answer: answering("HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n")},
		{name: "switching protocols unasked", answer: answering("HTTP/1.1 101 Switching Protocols\r\n\r\n")},
		{name: "switching protocols asked for", cfg: func(c *Config) {
			c.Headers = []Header{{Name: "Upgrade", Value: "websocket"}, {Name: "Connection", Value: "Upgrade"}}
		}, answer: answering("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")},
		{name: "bytes nobody asked for", answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA")},
		{name: "head too large", cfg: func(c *Config) { c.HeaderBuffer = 4096 }, answer: answering("HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 5000) + "\r\nContent-Length: 0\r\n\r\n")},
		{name: "body too large", cfg: func(c *Config) { c.MaxBody = 10 }, answer: answering("HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n" + strings.Repeat("b", 20))},
		{name: "cut short in a chunk", answer: answeringOnce("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")},
		{name: "reset before answering", answer: func(c net.Conn, _ *http.Request, _ int) bool {
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // the close sends a reset
			}
			return false
		}},
		{name: "a large body in small writes", answer: func(c net.Conn, _ *http.Request, _ int) bool {
			if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 300000\r\n\r\n"); err != nil {
				return false
			}
			for range 300 {
				if _, err := c.Write(make([]byte, 1000)); err != nil {
					return false
				}
			}
			return true
		}},
		{name: "gzip unasked", answer: answering("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + fmt.Sprint(len(gzipHello)) + "\r\n\r\n" + gzipHello)},
		{name: "broken chunk", answer: answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newRawServer(t, tc.answer)
			var targets []urls.Target
			for _, p := range []string{"/a", "/b"} {
				tg, err := urls.ParseLine(strings.TrimSpace(srv.url(p)+" "+tc.method), urls.Options{})
				if err != nil {
					t.Fatal(err)
				}
				targets = append(targets, tg)
			}
			cfg := Config{Users: 3, Reps: 4, Timeout: 10 * time.Second}
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			loopRes, goRes, loopOut, goOut := runBothEngines(t, cfg, targets)
			if tc.racy {
				// Which connection the goroutine engine's pool hands out decides its results:
				// the loop's must be what a browser gets.
				if got := untargeted(loopSummary(loopRes)); !slices.Equal(got, tc.loop) {
					t.Errorf("the loop's results: %q, want %q", got, tc.loop)
				}
				return
			}
			if got, want := loopSummary(loopRes), loopSummary(goRes); !slices.Equal(got, want) {
				t.Errorf("the loop's results differ:\n loop: %q\n goroutines: %q", got, want)
			}
			if loopOut.WireBytesOut != goOut.WireBytesOut {
				t.Errorf("bytes written: loop %d, goroutines %d", loopOut.WireBytesOut, goOut.WireBytesOut)
			}
			if !slices.Equal(sortedKeys(loopOut.ErrorSamples), sortedKeys(goOut.ErrorSamples)) {
				t.Errorf("error samples: loop %v, goroutines %v", loopOut.ErrorSamples, goOut.ErrorSamples)
			}

			// The same answers in the open model: one user serves the arrivals one after the
			// other, as the closed model's single user would, on either engine.
			open := Config{Rate: 1000, MaxUsers: 1, Reps: 8, Timeout: cfg.Timeout, HeaderBuffer: cfg.HeaderBuffer,
				MaxBody: cfg.MaxBody, Headers: cfg.Headers}
			loopRes, loopOut, goOut = runOpenBothEngines(t, open, targets)
			if len(loopRes) != open.Reps {
				t.Errorf("open model: %d results on the loop, want %d", len(loopRes), open.Reps)
			}
			if loopOut.Users != goOut.Users || loopOut.Unsent != goOut.Unsent || loopOut.WireBytesOut != goOut.WireBytesOut {
				t.Errorf("open model: loop %d users, %d unsent, %d bytes written; goroutines %d, %d, %d",
					loopOut.Users, loopOut.Unsent, loopOut.WireBytesOut, goOut.Users, goOut.Unsent, goOut.WireBytesOut)
			}
		})
	}
}

// runOpenBothEngines is runBothEngines for the open model: it fails unless the engines give the
// same results (openSummary), and returns the loop's.
func runOpenBothEngines(t *testing.T, cfg Config, targets []urls.Target) (loopRes []Result, loopOut, goOut Outcome) {
	t.Helper()
	loopRes, goRes, loopOut, goOut := runBothEngines(t, cfg, targets)
	if got, want := openSummary(loopRes), openSummary(goRes); !slices.Equal(got, want) {
		t.Errorf("open model, %d users: the loop's results differ:\n loop: %q\n goroutines: %q", cfg.MaxUsers, got, want)
	}
	return loopRes, loopOut, goOut
}

// openSummary is loopSummary for the open model: each result with its place in the schedule.
func openSummary(results []Result) []string {
	out := make([]string, 0, len(results))
	for _, r := range results {
		out = append(out, fmt.Sprintf("%v arrival=%v t%d %d %s body=%d/%d resent=%v http10=%v", r.Intended, r.Arrival,
			r.Target, r.Status, r.Err, r.BodyBytes, r.Decoded, r.Resent, r.HTTP10))
	}
	slices.Sort(out)
	return out
}

// racyCloses is the loop's results for "closed after each answer" without their targets:
// each user's first request on a new connection, every later one resent on another after
// finding its kept-alive one closed.
func racyCloses() []string {
	var out []string
	for u := range 3 {
		for i := range 4 {
			out = append(out, fmt.Sprintf("u%d 200 none body=2/2 resent=%v http10=false", u, i > 0))
		}
	}
	slices.Sort(out)
	return out
}

// untargeted is a summary without the targets.
func untargeted(summary []string) []string {
	out := make([]string, len(summary))
	for i, s := range summary {
		_, out[i], _ = strings.Cut(s, " ")
	}
	slices.Sort(out)
	return out
}

// gzipHello is "hello, hello, hello" gzip-compressed.
var gzipHello = func() string {
	var b strings.Builder
	w := gzip.NewWriter(&b)
	_, _ = io.WriteString(w, "hello, hello, hello")
	_ = w.Close()
	return b.String()
}()

func sortedKeys(m map[ErrKind]string) []ErrKind {
	var out []ErrKind
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestLoopWritesWhatTheGoroutineEngineWrites compares the bytes each engine writes for the
// same targets: methods, bodies, the run's headers and User-Agent.
func TestLoopWritesWhatTheGoroutineEngineWrites(t *testing.T) {
	t.Parallel()
	capture := func(noLoop bool) []string {
		var mu sync.Mutex
		var got []string
		addr := serveLoopback(t, func(c net.Conn) {
			defer c.Close()
			buf := make([]byte, 4096)
			var seen []byte
			for {
				n, err := c.Read(buf)
				seen = append(seen, buf[:n]...)
				if err != nil {
					return
				}
				// Each request here ends with its body, whose last byte is '!', or a blank line.
				if strings.HasSuffix(string(seen), "\r\n\r\n") || strings.HasSuffix(string(seen), "!") {
					mu.Lock()
					got = append(got, string(seen))
					mu.Unlock()
					seen = seen[:0]
					if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); err != nil {
						return
					}
				}
			}
		})
		var targets []urls.Target
		for _, line := range []string{
			"http://" + addr + "/get?q=1",
			"http://" + addr + "/head HEAD",
			"http://" + addr + "/post POST a=1&b=2!",
			"http://" + addr + "/put PUT <" + writeTemp(t, "put body!"),
		} {
			tg, err := urls.ParseLine(line, urls.Options{AllowAbsoluteBodies: true})
			if err != nil {
				t.Fatal(err)
			}
			targets = append(targets, tg)
		}
		cfg := Config{Users: 1, Reps: len(targets), UserAgent: "webload-test", ContentType: "text/x-test",
			Headers: []Header{{Name: "X-Run", Value: "1"}}, noLoop: noLoop}
		run(t, cfg, targets)
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for _, s := range got {
			out = append(out, strings.ReplaceAll(s, addr, "ADDR"))
		}
		slices.Sort(out)
		return out
	}
	loop, goroutines := capture(false), capture(true)
	if len(loop) != 4 || !slices.Equal(loop, goroutines) {
		t.Errorf("requests differ:\n loop: %q\n goroutines: %q", loop, goroutines)
	}
}

// TestLoopClosesAfterASpacedName: an answer with a space inside a field name ("X A: b") is read,
// and its connection is not used again, on both engines (fasthttp closes it; RFC 9112 5.1
// allows no such name).
func TestLoopClosesAfterASpacedName(t *testing.T) {
	t.Parallel()
	srv := newRawServer(t, func(c net.Conn, _ *http.Request, nth int) bool {
		status := "200 OK"
		if nth > 0 {
			status = "500 Reused" // the connection carried a second request
		}
		_, err := io.WriteString(c, "HTTP/1.1 "+status+"\r\nX A: b\r\nContent-Length: 2\r\n\r\nok")
		return err == nil
	})
	tg, err := urls.ParseLine("http://"+srv.addr+"/", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	loopRes, goRes, _, _ := runBothEngines(t, Config{Users: 2, Reps: 3, Timeout: 10 * time.Second}, []urls.Target{tg})
	for engine, res := range map[string][]Result{"loop": loopRes, "goroutines": goRes} {
		if len(res) != 6 {
			t.Errorf("%s: %d results, want 6", engine, len(res))
		}
		for _, r := range res {
			if r.Status != 200 || r.Err != ErrNone {
				t.Errorf("%s: a request got %d %s, want 200 on a new connection", engine, r.Status, r.Err)
			}
		}
	}
}

// TestLoopRefusedAndTimedOut: a port nothing listens on, and a server that never answers, fail
// the same way on both engines.
func TestLoopRefusedAndTimedOut(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	silent := serveLoopback(t, func(c net.Conn) {
		_, _ = io.Copy(io.Discard, c) // reads, never answers
		c.Close()
	})
	answers := newRawServer(t, func(c net.Conn, _ *http.Request, _ int) bool { return writeOK(c) }).addr
	for _, tc := range []struct {
		name, addr string
		kind       ErrKind
		timeout    time.Duration
	}{
		// A refusal comes at once: a long timeout, so that a busy machine cannot turn it into a
		// timeout on one engine only.
		{"refused", closed, ErrRefused, 10 * time.Second},
		{"never answered", silent, ErrTimeout, 200 * time.Millisecond},
		// Every request's time is up before it is sent: each is booked once, as a timeout.
		{"a timeout shorter than any answer", answers, ErrTimeout, time.Nanosecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tg, err := urls.ParseLine("http://"+tc.addr+"/", urls.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Users: 2, Reps: 2, Timeout: tc.timeout}
			loopRes, goRes, _, _ := runBothEngines(t, cfg, []urls.Target{tg})
			if got, want := loopSummary(loopRes), loopSummary(goRes); !slices.Equal(got, want) {
				t.Errorf("the loop's results differ:\n loop: %q\n goroutines: %q", got, want)
			}
			for _, r := range loopRes {
				if r.Err != tc.kind {
					t.Errorf("a request failed as %s, want %s", r.Err, tc.kind)
				}
			}
		})
	}
}

// TestLoopable lists which runs take the event loop.
func TestLoopable(t *testing.T) {
	t.Parallel()
	plain := func(c *Config) {}
	cases := []struct {
		name  string
		url   string
		cfg   func(*Config)
		wants bool
	}{
		{"plain", "http://127.0.0.1:1/", plain, true},
		{"https", "https://127.0.0.1:1/", plain, false},
		{"http2", "http://127.0.0.1:1/", func(c *Config) { c.HTTP2 = true }, false},
		{"cookies", "http://127.0.0.1:1/", func(c *Config) { c.Cookies = true }, false},
		{"redirects", "http://127.0.0.1:1/", func(c *Config) { c.FollowRedirects = true }, false},
		{"parser", "http://127.0.0.1:1/", func(c *Config) { c.Parser = true }, false},
		{"compression", "http://127.0.0.1:1/", func(c *Config) { c.AcceptEncoding = "gzip" }, false},
		{"compression header", "http://127.0.0.1:1/", func(c *Config) {
			c.Headers = []Header{{Name: "accept-encoding", Value: "br"}}
		}, false},
		{"delay", "http://127.0.0.1:1/", func(c *Config) { c.Delay = time.Second }, false},
		{"ramp", "http://127.0.0.1:1/", func(c *Config) { c.Ramp = time.Second }, false},
		{"open model", "http://127.0.0.1:1/", func(c *Config) { c.Rate = 10; c.MaxUsers = 2 }, true},
		{"open model ramping its rate", "http://127.0.0.1:1/", func(c *Config) { c.Rate = 10; c.MaxUsers = 2; c.Ramp = time.Second }, true},
		{"proxy", "http://127.0.0.1:1/", func(c *Config) { c.Proxy = "http://127.0.0.1:2" }, false},
		{"resolve", "http://example.test:1/", func(c *Config) { c.Resolve = []string{"example.test:1:127.0.0.1"} }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tg, err := urls.ParseLine(tc.url, urls.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Users: 1, Reps: 1, Timeout: time.Second}
			tc.cfg(&cfg)
			l, err := New(cfg, []urls.Target{tg})
			if err != nil {
				t.Fatal(err)
			}
			if got := l.loopable(); got != tc.wants {
				t.Errorf("loopable = %v, want %v", got, tc.wants)
			}
		})
	}
}

// writeTemp writes s to a file of the test's and returns its path.
func writeTemp(t *testing.T, s string) string {
	t.Helper()
	p := t.TempDir() + "/body"
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoopAddr: where the loop connects for a URL's host and port, as urls.DialHostPort gives
// them; names resolve through the given function, to IPv4 as the goroutine engine's dialer.
func TestLoopAddr(t *testing.T) {
	t.Parallel()
	resolve := func(host string) (netip.Addr, bool) {
		if host == "shop.test" {
			return netip.MustParseAddr("10.0.0.7"), true
		}
		return netip.Addr{}, false
	}
	for _, tc := range []struct {
		url, want string
	}{
		{"http://127.0.0.1/", "127.0.0.1:80"},
		{"http://127.0.0.1:8080/a", "127.0.0.1:8080"},
		{"http://[::1]:8081/", "[::1]:8081"},
		{"http://[::ffff:127.0.0.1]/", "127.0.0.1:80"},
		{"http://shop.test:81/", "10.0.0.7:81"},
		{"http://nowhere.test/", ""},
		{"http://127.0.0.1:0/", ""},
	} {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		a, ok := loopAddr(urls.DialHostPort(u), resolve)
		got := ""
		if ok {
			got = a.String()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.url, got, tc.want)
		}
	}
}

// TestLoopReadsAnAnswerThatCameWhileWriting: the server answers as soon as it has a request's
// head, then reads its large body and sends nothing more. The answer's event came while the
// body was still going out, so the loop must read once the request is whole, or wait for the
// timeout.
func TestLoopReadsAnAnswerThatCameWhileWriting(t *testing.T) {
	t.Parallel()
	addr := serveLoopback(t, func(c net.Conn) {
		defer c.Close()
		br := bufio.NewReader(c)
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"); err != nil {
				return
			}
			if _, err := io.Copy(io.Discard, req.Body); err != nil {
				return
			}
		}
	})
	body := strings.Repeat("x", 8<<20) // far more than the sockets' buffers hold
	tg, err := urls.ParseLine("http://"+addr+"/up POST <"+writeTemp(t, body), urls.Options{AllowAbsoluteBodies: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Users: 1, Reps: 3, Timeout: 10 * time.Second}
	loopRes, goRes, _, _ := runBothEngines(t, cfg, []urls.Target{tg})
	if got, want := loopSummary(loopRes), loopSummary(goRes); !slices.Equal(got, want) {
		t.Errorf("the loop's results differ:\n loop: %q\n goroutines: %q", got, want)
	}
	for _, r := range loopRes {
		if r.Status != 200 || r.Err != ErrNone {
			t.Errorf("result %+v, want 200", r)
		}
	}
}
