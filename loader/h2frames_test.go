package loader

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/webload/webload/urls"
)

// h2Peer is the server's side of one h2c connection in tests that write their own frames: it
// acknowledges the client's settings as it reads.
type h2Peer struct {
	fr   *http2.Framer
	head bytes.Buffer
	enc  *hpack.Encoder
}

// newH2Peer opens the server's side of c (see h2cFramer); nil when the client went away.
func newH2Peer(c net.Conn) *h2Peer {
	fr := h2cFramer(c)
	if fr == nil {
		return nil
	}
	p := &h2Peer{fr: fr}
	p.enc = hpack.NewEncoder(&p.head)
	return p
}

// next reads frames up to the next one that is not SETTINGS or a WINDOW_UPDATE, acknowledging
// settings on the way; nil when the connection ended.
func (p *h2Peer) next() http2.Frame {
	for {
		f, err := p.fr.ReadFrame()
		if err != nil {
			return nil
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() && p.fr.WriteSettingsAck() != nil {
				return nil
			}
		case *http2.WindowUpdateFrame:
		default:
			return f
		}
	}
}

// request reads up to the next request's HEADERS and returns its stream; 0 when the
// connection ended.
func (p *h2Peer) request() uint32 {
	for {
		f := p.next()
		if f == nil {
			return 0
		}
		if h, ok := f.(*http2.HeadersFrame); ok {
			return h.StreamID
		}
	}
}

// block encodes fields as a header block.
func (p *h2Peer) block(fields ...string) []byte {
	p.head.Reset()
	for i := 0; i+1 < len(fields); i += 2 {
		_ = p.enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
	}
	return bytes.Clone(p.head.Bytes())
}

// answer writes a 200 whose body is body.
func (p *h2Peer) answer(id uint32, body string) error {
	err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true,
		BlockFragment: p.block(":status", "200", "content-length", strconv.Itoa(len(body)))})
	if err == nil {
		err = p.fr.WriteData(id, true, []byte(body))
	}
	return err
}

// A GOAWAY sent while two requests share a connection lets the one at or below its last
// stream finish, and sends the other again on a new connection; both are counted.
func TestHTTP2GoAwayRetriesLaterStreams(t *testing.T) {
	t.Parallel()
	var conns atomic.Int64
	addr := serveH2cPeer(t, func(p *h2Peer) {
		if conns.Add(1) > 1 {
			p.each(func(p *h2Peer, id uint32) error { return p.answer(id, "second") })
			return
		}
		// Both users' requests come on the first connection, in either order.
		a, b := p.request(), p.request()
		if a == 0 || b == 0 {
			return
		}
		first := min(a, b)
		_ = p.answer(first, "first")
		_ = p.fr.WriteGoAway(first, http2.ErrCodeNo, nil)
		time.Sleep(100 * time.Millisecond) // the client reads all before the socket closes
	})
	results, out := run(t, Config{Users: 2, Reps: 1, HTTP2: true, Timeout: 10 * time.Second}, oneTarget(t, "http://"+addr+"/"))
	checkResults(t, results, 2, ErrNone)
	if out.Connections != 2 || out.H2GoAways != 1 || out.H2Retries != 1 {
		t.Errorf("%d connections, %d GOAWAY, %d retried; want 2, 1 and 1", out.Connections, out.H2GoAways, out.H2Retries)
	}
}

// A stream the server resets with a code other than REFUSED_STREAM fails its request at once,
// naming the code, and is counted; the connection serves the next request.
func TestHTTP2StreamResetFails(t *testing.T) {
	t.Parallel()
	addr := serveH2c(t, func(p *h2Peer, id uint32) error {
		return p.fr.WriteRSTStream(id, http2.ErrCodeInternal)
	}, nil)
	results, out := run(t, Config{Users: 1, Reps: 2, HTTP2: true, Timeout: 10 * time.Second}, oneTarget(t, "http://"+addr+"/"))
	checkResults(t, results, 2, ErrOther)
	if got, want := out.ErrorSamples[ErrOther], "http2: server reset the request's stream (INTERNAL_ERROR)"; got != want {
		t.Errorf("sample %q, want %q", got, want)
	}
	if out.H2Resets != 2 || out.H2Retries != 0 || out.Connections != 1 {
		t.Errorf("%d resets, %d retried, %d connections; want 2, 0 and 1", out.H2Resets, out.H2Retries, out.Connections)
	}
}

// Bodies larger than the windows flow both ways: the client gives the window back as it reads
// an answer of 10 MB (its own window is 4 MB), and sends a 3 MB request body within the
// server's windows.
func TestHTTP2LargeBodies(t *testing.T) {
	t.Parallel()
	const down, up = 10 << 20, 3 << 20
	big := bytes.Repeat([]byte("x"), down)
	srv := newH2Server(t, true, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" {
			io.WriteString(w, "ok") // the body was read whole by hitServer
			return
		}
		_, _ = w.Write(big)
	})
	results, out := run(t, Config{Users: 2, Reps: 2, HTTP2: true, Timeout: 20 * time.Second}, oneTarget(t, srv.URL+"/big"))
	checkResults(t, results, 4, ErrNone)
	for _, r := range results {
		if r.BodyBytes != down {
			t.Errorf("result %+v, want a body of %d bytes", r, down)
		}
	}
	if out.Connections != 1 {
		t.Errorf("%d connections, want 1", out.Connections)
	}
	tg := urls.Target{Method: "POST", URL: srv.URL + "/up", Body: bytes.Repeat([]byte("y"), up), Source: "test"}
	results, _ = run(t, Config{Users: 1, Reps: 1, HTTP2: true, Timeout: 20 * time.Second}, []urls.Target{tg})
	checkResults(t, results, 1, ErrNone)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if got := len(srv.bodies["/up"]); got != up {
		t.Errorf("server read a body of %d bytes, want %d", got, up)
	}
}

// A server that answers before reading the whole request body (and then resets the stream)
// gives a whole answer; the rest of the body is not sent, and the connection goes on.
func TestHTTP2AnswerBeforeBody(t *testing.T) {
	t.Parallel()
	srv := newDiscardServer(t, true, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "too large") // the body is left unread
	}))
	tg := urls.Target{Method: "POST", URL: srv + "/up", Body: bytes.Repeat([]byte("y"), 5<<20), Source: "test"}
	results, out := run(t, Config{Users: 1, Reps: 3, HTTP2: true, Timeout: 10 * time.Second}, []urls.Target{tg})
	checkResults(t, results, 3, ErrNone)
	for _, r := range results {
		if r.Status != 200 || r.BodyBytes != int64(len("too large")) {
			t.Errorf("result %+v, want status 200 and the whole answer", r)
		}
	}
	if out.Connections != 1 {
		t.Errorf("%d connections, want 1", out.Connections)
	}
}

// Twenty users share one connection, their streams multiplexed on it.
func TestHTTP2UsersShareOneConnection(t *testing.T) {
	t.Parallel()
	srv := newH2Server(t, true, nil)
	results, out := run(t, Config{Users: 20, Reps: 5, HTTP2: true, Timeout: 20 * time.Second}, oneTarget(t, srv.URL+"/"))
	checkResults(t, results, 100, ErrNone)
	onlyHTTP2(t, srv, 100)
	if out.Connections != 1 {
		t.Errorf("%d connections, want 1", out.Connections)
	}
}

// Answers as servers may send them: header blocks split into CONTINUATION frames, a PING or
// new SETTINGS first that must be answered, or trailers after the body.
func TestHTTP2HeaderBlocks(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("v", 40<<10)
	tests := []struct {
		name   string
		answer func(p *h2Peer, id uint32) error
	}{
		{"continuation frames", func(p *h2Peer, id uint32) error {
			block := p.block(":status", "200", "x-long", long, "content-length", "2")
			err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block[:10]})
			for rest := block[10:]; err == nil && len(rest) > 0; {
				n := min(len(rest), 16<<10)
				err = p.fr.WriteContinuation(id, n == len(rest), rest[:n])
				rest = rest[n:]
			}
			if err == nil {
				err = p.fr.WriteData(id, true, []byte("ok"))
			}
			return err
		}},
		{"ping first", func(p *h2Peer, id uint32) error {
			data := [8]byte{'w', 'e', 'b', 'l', 'o', 'a', 'd', '!'}
			if err := p.fr.WritePing(false, data); err != nil {
				return err
			}
			f := p.next()
			if ping, ok := f.(*http2.PingFrame); !ok || !ping.IsAck() || ping.Data != data {
				return p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true,
					BlockFragment: p.block(":status", "500")})
			}
			return p.answer(id, "ok")
		}},
		{"settings acknowledged", func(p *h2Peer, id uint32) error {
			if err := p.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 20}); err != nil {
				return err
			}
			for { // the client acknowledged the first settings before its request
				f, err := p.fr.ReadFrame()
				if err != nil {
					return err
				}
				if sf, ok := f.(*http2.SettingsFrame); ok && sf.IsAck() {
					return p.answer(id, "ok")
				}
			}
		}},
		{"trailers", func(p *h2Peer, id uint32) error {
			err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, BlockFragment: p.block(":status", "200")})
			if err == nil {
				err = p.fr.WriteData(id, false, []byte("ok"))
			}
			if err == nil {
				err = p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true,
					BlockFragment: p.block("x-checksum", "abc")})
			}
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := serveH2c(t, tc.answer, nil)
			results, out := run(t, Config{Users: 1, Reps: 2, HTTP2: true, Timeout: 10 * time.Second}, oneTarget(t, "http://"+addr+"/"))
			checkResults(t, results, 2, ErrNone)
			for _, r := range results {
				if r.Status != 200 || r.BodyBytes != 2 {
					t.Errorf("result %+v, want status 200 and a body of 2 bytes", r)
				}
			}
			if out.Connections != 1 {
				t.Errorf("%d connections, want 1", out.Connections)
			}
		})
	}
}

// A body shorter or longer than its Content-Length is a bad response, as over HTTP/1.1.
func TestHTTP2BodyLengthDiffers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		length string
	}{{"shorter", "10"}, {"longer", "1"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := serveH2c(t, func(p *h2Peer, id uint32) error {
				err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true,
					BlockFragment: p.block(":status", "200", "content-length", tc.length)})
				if err == nil {
					err = p.fr.WriteData(id, true, []byte("ok"))
				}
				return err
			}, nil)
			results, out := run(t, Config{Users: 1, Reps: 2, HTTP2: true, Timeout: 10 * time.Second}, oneTarget(t, "http://"+addr+"/"))
			checkResults(t, results, 2, ErrBadResponse)
			if got, want := out.ErrorSamples[ErrBadResponse], "cannot read response body: its length is not its Content-Length"; got != want {
				t.Errorf("sample %q, want %q", got, want)
			}
			if out.Connections != 1 {
				t.Errorf("%d connections, want 1: a stream's fault is not the connection's", out.Connections)
			}
		})
	}
}

// A request head longer than the server's frame size goes out in CONTINUATION frames, and
// arrives whole.
func TestHTTP2LongRequestHead(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("h", 40<<10)
	srv := newH2Server(t, true, nil)
	results, _ := run(t, Config{Users: 1, Reps: 2, HTTP2: true, Headers: []Header{{Name: "X-Long", Value: long}}},
		oneTarget(t, srv.URL+"/long"))
	checkResults(t, results, 2, ErrNone)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if got := srv.headers["/long"].Get("X-Long"); got != long {
		t.Errorf("server saw X-Long of %d bytes, want %d", len(got), len(long))
	}
}

// The end of a run closes its HTTP/2 connections, which no request uses any more.
func TestHTTP2ClosesIdleConnections(t *testing.T) {
	t.Parallel()
	closed := make(chan struct{}, 1) // the client closed the connection (h2cFramer's deadline is 10 s)
	addr := serveH2c(t, answerOK, closed)
	start := time.Now()
	results, _ := run(t, Config{Users: 1, Reps: 2, HTTP2: true}, oneTarget(t, "http://"+addr+"/"))
	checkResults(t, results, 2, ErrNone)
	select {
	case <-closed:
	case <-time.After(8*time.Second - time.Since(start)): // before h2cFramer's deadline closes it
		t.Error("the connection was still open after the run")
	}
}

// An answer whose header list is longer than the client's bound fails, naming the bound, and
// the connection goes on serving the next request: the block was decoded all the same.
func TestHTTP2HeaderListBound(t *testing.T) {
	t.Parallel()
	addr := serveH2c(t, func(p *h2Peer, id uint32) error {
		fields := []string{":status", "200"}
		for i := range 40 { // 40 KiB in fields of 1 KiB, split in frames of 16 KiB
			fields = append(fields, "x-big-"+strconv.Itoa(i), strings.Repeat("b", 1<<10))
		}
		block := p.block(fields...)
		err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block[:16<<10]})
		for rest := block[16<<10:]; err == nil && len(rest) > 0; {
			n := min(len(rest), 16<<10)
			err = p.fr.WriteContinuation(id, n == len(rest), rest[:n])
			rest = rest[n:]
		}
		return err
	}, nil)
	var stats connStats
	c := testH2Client(t, Config{Timeout: 10 * time.Second}, &stats)
	c.maxHeaderList = 32 << 10
	for range 2 {
		_, err := h2Get(t, c, "http://"+addr+"/")
		if got, want := fmt.Sprint(err), "http2: response headers longer than 32768 bytes"; got != want {
			t.Errorf("error %q, want %q", got, want)
		}
	}
	if got := stats.opened.Load(); got != 1 {
		t.Errorf("%d connections, want 1", got)
	}
}

// A connection no request has used for the idle time is closed.
func TestHTTP2IdleConnectionClosed(t *testing.T) {
	t.Parallel()
	closed := make(chan struct{}, 1)
	addr := serveH2c(t, answerOK, closed)
	var stats connStats
	c := testH2Client(t, Config{Timeout: 5 * time.Second}, &stats)
	c.idle = 50 * time.Millisecond
	resp, err := h2Get(t, c, "http://"+addr+"/")
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.CloseBodyStream(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(8 * time.Second): // before h2cFramer's deadline closes it
		t.Error("the idle connection was still open")
	}
}

// The same head sent again goes out as the block it was, but not once the server has shrunk
// the table that block refers to: the first block after the client acknowledged the new size
// begins with a table size update (RFC 7541 4.2), and every block decodes to the request.
func TestHTTP2HeadFollowsTheTableSize(t *testing.T) {
	t.Parallel()
	type seen struct {
		path       string
		sizeUpdate bool
		err        error
	}
	got := make(chan seen, 16)
	addr := serveH2cPeer(t, func(p *h2Peer) {
		dec := hpack.NewDecoder(4096, nil)
		for n := 1; ; n++ {
			id := uint32(0)
			var block []byte
			for id == 0 {
				f := p.next()
				if f == nil {
					return
				}
				if h, ok := f.(*http2.HeadersFrame); ok {
					id, block = h.StreamID, bytes.Clone(h.HeaderBlockFragment())
				}
			}
			fields, err := dec.DecodeFull(block)
			s := seen{sizeUpdate: len(block) > 0 && block[0]&0xe0 == 0x20, err: err}
			for _, f := range fields {
				if f.Name == ":path" {
					s.path = f.Value
				}
			}
			got <- s
			if n == 3 && p.fr.WriteSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: 0}) != nil {
				return
			}
			if p.answer(id, "ok") != nil {
				return
			}
		}
	})
	const reps = 6
	results, _ := run(t, Config{Users: 1, Reps: reps, HTTP2: true, Timeout: 10 * time.Second}, oneTarget(t, "http://"+addr+"/same"))
	checkResults(t, results, reps, ErrNone)
	for i := 1; i <= reps; i++ {
		s := <-got
		if s.err != nil || s.path != "/same" {
			t.Errorf("request %d decodes to path %q (error %v), want /same", i, s.path, s.err)
		}
		if want := i == 4; s.sizeUpdate != want {
			t.Errorf("request %d begins with a table size update: %v, want %v", i, s.sizeUpdate, want)
		}
	}
}
