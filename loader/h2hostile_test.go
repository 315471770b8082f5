package loader

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/urls"
)

// Servers that break HTTP/2 on purpose: the client must give each request a true verdict
// (never a success for an answer that was not whole, a failure of the kind that says what
// went wrong), within its timeout, without spinning, and leave no goroutine of its own behind.

// hostileServer serves connections with serve on loopback, over h2c or, when overTLS, over TLS
// that agrees on h2; it returns the URL to request.
func hostileServer(t *testing.T, overTLS bool, serve func(c net.Conn)) string {
	t.Helper()
	if !overTLS {
		return "http://" + serveLoopback(t, serve) + "/"
	}
	cert, _, _ := newTestCA(t).issue(t, "127.0.0.1", "localhost")
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}}
	return "https://" + serveLoopback(t, func(c net.Conn) {
		tlsConn := tls.Server(c, tc)
		defer tlsConn.Close()
		_ = tlsConn.SetDeadline(time.Now().Add(10 * time.Second))
		if tlsConn.Handshake() != nil {
			return
		}
		serve(tlsConn)
	}) + "/"
}

// hostilePeer reads the client's preface and sends settings as the server's first frame,
// within 10 s for the whole connection; nil when the client went away.
func hostilePeer(c net.Conn, settings ...http2.Setting) *h2Peer {
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(c, make([]byte, len(http2.ClientPreface))); err != nil {
		return nil
	}
	fr := http2.NewFramer(c, c)
	fr.AllowIllegalWrites = true
	if err := fr.WriteSettings(settings...); err != nil {
		return nil
	}
	p := &h2Peer{fr: fr}
	p.enc = hpack.NewEncoder(&p.head)
	return p
}

// answerEach serves every request of the connection with answer, after settings.
func answerEach(answer func(p *h2Peer, id uint32) error, settings ...http2.Setting) func(c net.Conn) {
	return func(c net.Conn) {
		defer c.Close()
		if p := hostilePeer(c, settings...); p != nil {
			p.each(answer)
		}
	}
}

// drain reads what the client sends until it closes the connection.
func drain(c net.Conn) { _, _ = io.Copy(io.Discard, c) }

// headWith writes a head of raw fields (name, value...), encoded as they are.
func headWith(p *h2Peer, id uint32, endStream bool, fields ...string) error {
	return p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: endStream,
		BlockFragment: p.block(fields...)})
}

// h2Goroutines counts the goroutines running the HTTP/2 client's code.
func h2Goroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if h2GoroutineRE.MatchString(g) {
			n++
		}
	}
	return n
}

var h2GoroutineRE = regexp.MustCompile(`/loader\.\(\*h2(?:Conn|Client|Stream|Host)\)`)

// checkNoH2Goroutines fails t when goroutines of the client outlive its run by a hang guard's
// 5 s: the run closed its idle connections.
func checkNoH2Goroutines(t *testing.T, before int) {
	t.Helper()
	for range 500 {
		if h2Goroutines() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Errorf("%d goroutines of the HTTP/2 client left after the run, %d before:\n%s", h2Goroutines(), before, buf[:runtime.Stack(buf, true)])
}

type h2HostileCase struct {
	name    string
	overTLS bool
	serve   func(c net.Conn)
	post    int // the request's body, in bytes; 0 sends a GET
	reps    int // requests in a row (1 when 0)
	timeout time.Duration
	want    ErrKind
	sample  string // what the kind's sample says, in part
	body    int64  // the body bytes each result has, when want is ErrNone
}

func runH2Hostile(t *testing.T, tests []h2HostileCase) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := h2Goroutines()
			url := hostileServer(t, tc.overTLS, tc.serve)
			tg := urls.Target{Method: "GET", URL: url, Source: "test"}
			if tc.post > 0 {
				tg.Method, tg.Body = "POST", bytes.Repeat([]byte("u"), tc.post)
			}
			reps := max(tc.reps, 1)
			results, out := run(t, Config{Users: 1, Reps: reps, HTTP2: true, Insecure: true, Timeout: tc.timeout}, []urls.Target{tg})
			checkResults(t, results, reps, tc.want)
			if tc.want == ErrNone {
				for _, r := range results {
					if r.BodyBytes != tc.body {
						t.Errorf("result %+v, want a body of %d bytes", r, tc.body)
					}
				}
			} else if s := out.ErrorSamples[tc.want]; !strings.Contains(s, tc.sample) {
				t.Errorf("sample %q, want it to say %q", s, tc.sample)
			}
			checkNoH2Goroutines(t, before)
		})
	}
}

// set is a setting, shorter.
func set(id http2.SettingID, v uint32) http2.Setting { return http2.Setting{ID: id, Val: v} }

// answersOK answers every request with a 200 of "ok", after settings.
func answersOK(settings ...http2.Setting) func(c net.Conn) {
	return answerEach(answerOK, settings...)
}

// answerAfter answers every request with a 200 of "ok" after the frames before writes.
func answerAfter(before func(p *h2Peer, id uint32) error) func(c net.Conn) {
	return answerEach(func(p *h2Peer, id uint32) error {
		if err := before(p, id); err != nil {
			return err
		}
		return p.answer(id, "ok")
	})
}

// silent reads the client's preface and whatever follows, and sends nothing.
func silent(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	drain(c)
}

// readsBody answers a request only once its body came whole, after settings.
func readsBody(settings ...http2.Setting) func(c net.Conn) {
	return func(c net.Conn) {
		defer c.Close()
		p := hostilePeer(c, settings...)
		if p == nil {
			return
		}
		for f := p.next(); f != nil; f = p.next() {
			if d, ok := f.(*http2.DataFrame); ok && d.StreamEnded() && p.answer(d.StreamID, "ok") != nil {
				return
			}
		}
	}
}

// h2Flood writes 10000 frames with flood before each answer while it reads what the client
// writes back, as a server must.
func h2Flood(flood func(fr *http2.Framer, i int) error) func(c net.Conn) {
	return func(c net.Conn) {
		defer c.Close()
		p := hostilePeer(c)
		if p == nil {
			return
		}
		ids := make(chan uint32)
		go func() {
			defer close(ids)
			for id := p.request(); id != 0; id = p.request() {
				ids <- id
			}
		}()
		for id := range ids {
			for i := range 10000 {
				if flood(p.fr, i) != nil {
					return
				}
			}
			if p.answer(id, "ok") != nil {
				return
			}
		}
	}
}

// What hostile servers do that the client already takes as it should.
func TestHTTP2HostileHandled(t *testing.T) {
	testtier.Slow(t)
	const long, short = 10 * time.Second, 500 * time.Millisecond
	// tableSize answers each request after decoding its head with a table of size bytes: a
	// head that uses more table than the server allowed answers 500, which fails the check.
	tableSize := func(size uint32) func(c net.Conn) {
		return func(c net.Conn) {
			defer c.Close()
			p := hostilePeer(c, set(http2.SettingHeaderTableSize, size))
			if p == nil {
				return
			}
			dec := hpack.NewDecoder(min(size, 4096), nil)
			for f := p.next(); f != nil; f = p.next() {
				h, ok := f.(*http2.HeadersFrame)
				if !ok {
					continue
				}
				if _, err := dec.DecodeFull(h.HeaderBlockFragment()); err != nil {
					_ = headWith(p, h.StreamID, true, ":status", "500")
					continue
				}
				if p.answer(h.StreamID, "ok") != nil {
					return
				}
			}
		}
	}
	goAwayEvery := func(c net.Conn) {
		defer c.Close()
		p := hostilePeer(c)
		if p != nil && p.request() != 0 {
			_ = p.fr.WriteGoAway(0, http2.ErrCodeNo, nil)
			drain(c) // and keep the connection open
		}
	}
	var goAwayID uint32
	runH2Hostile(t, []h2HostileCase{
		{name: "no settings", serve: silent, timeout: short, want: ErrTimeout, sample: "timeout"},
		{name: "no settings over TLS", overTLS: true, serve: silent, timeout: short, want: ErrTimeout, sample: "timeout"},
		{name: "HEADER_TABLE_SIZE 0", serve: tableSize(0), reps: 3, timeout: long, want: ErrNone, body: 2},
		{name: "HEADER_TABLE_SIZE 2^32-1", serve: tableSize(1<<32 - 1), reps: 3, timeout: long, want: ErrNone, body: 2},
		{name: "MAX_CONCURRENT_STREAMS 0", serve: answersOK(set(http2.SettingMaxConcurrentStreams, 0)), timeout: long, want: ErrOther, sample: "SETTINGS_MAX_CONCURRENT_STREAMS 0"},
		{name: "upload window never opens", serve: readsBody(set(http2.SettingInitialWindowSize, 0)), post: 100, timeout: short, want: ErrTimeout, sample: "timeout"},
		{name: "frames on streams never opened", reps: 2, timeout: long, want: ErrNone, body: 2, serve: answerAfter(func(p *h2Peer, id uint32) error {
			err := p.fr.WriteData(id+100, true, []byte("stray"))
			if err == nil {
				err = p.fr.WriteData(2, false, []byte("even"))
			}
			if err == nil {
				err = headWith(p, id+200, false, ":status", "200")
			}
			return err
		})},
		{name: "unknown frame types", reps: 2, timeout: long, want: ErrNone, body: 2, serve: answerAfter(func(p *h2Peer, id uint32) error {
			err := p.fr.WriteRawFrame(0xfa, 0, 0, []byte("whatever"))
			if err == nil {
				err = p.fr.WriteRawFrame(0xfb, 0xff, id, nil)
			}
			return err
		})},
		{name: "padding only", reps: 2, timeout: long, want: ErrNone, body: 2, serve: answerEach(func(p *h2Peer, id uint32) error {
			err := headWith(p, id, false, ":status", "200", "content-length", "2")
			for range 300 {
				if err == nil {
					err = p.fr.WriteDataPadded(id, false, nil, make([]byte, 255))
				}
			}
			if err == nil {
				err = p.fr.WriteDataPadded(id, true, []byte("ok"), make([]byte, 255))
			}
			return err
		})},
		{name: "PING flood", reps: 2, timeout: long, want: ErrNone, body: 2, serve: h2Flood(func(fr *http2.Framer, i int) error {
			return fr.WritePing(false, [8]byte{byte(i)})
		})},
		{name: "SETTINGS flood", reps: 2, timeout: long, want: ErrNone, body: 2, serve: h2Flood(func(fr *http2.Framer, i int) error {
			return fr.WriteSettings(set(http2.SettingInitialWindowSize, 65535+uint32(i%2)))
		})},
		{name: "RST_STREAM flood", reps: 2, timeout: long, want: ErrNone, body: 2, serve: h2Flood(func(fr *http2.Framer, i int) error {
			return fr.WriteRSTStream(uint32(1001+2*i), http2.ErrCodeCancel)
		})},
		{name: "GOAWAY before every stream, connection kept open", timeout: long, want: ErrRefused, sample: "GOAWAY", serve: goAwayEvery},
		{name: "GOAWAY again with growing IDs", reps: 3, timeout: long, want: ErrNone, body: 2, serve: answerAfter(func(p *h2Peer, id uint32) error {
			goAwayID += 2
			return p.fr.WriteGoAway(goAwayID+id, http2.ErrCodeNo, nil)
		})},
		{name: "body never ends", timeout: short, want: ErrTimeout, sample: "timeout", serve: answerEach(func(p *h2Peer, id uint32) error {
			err := headWith(p, id, false, ":status", "200")
			for range 100 {
				if err == nil {
					err = p.fr.WriteData(id, false, make([]byte, 16<<10))
				}
			}
			return err
		})},
		{name: "no :status", serve: answerEach(func(p *h2Peer, id uint32) error {
			return headWith(p, id, true, "content-length", "0")
		}), reps: 2, timeout: long, want: ErrBadResponse, sample: "cannot parse response"},
		{name: "HPACK bomb", serve: answerEach(hpackBomb), timeout: long, want: ErrOther, sample: "response headers longer than 10 MB"},
	})
}

// A server that breaks the protocol so that the connection cannot go on fails its requests
// at once, naming what it did, whatever the timeout: no request waits it out, no head is
// written in empty frames for ever.
func TestHTTP2HostileProtocol(t *testing.T) {
	testtier.Slow(t)
	const long = 10 * time.Second
	afterPreface := func(write func(c net.Conn)) func(c net.Conn) {
		return func(c net.Conn) {
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.ReadFull(c, make([]byte, len(http2.ClientPreface))); err == nil {
				write(c)
				drain(c)
			}
		}
	}
	http11 := afterPreface(func(c net.Conn) {
		_, _ = io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
	})
	pingFirst := afterPreface(func(c net.Conn) { _ = http2.NewFramer(c, c).WritePing(false, [8]byte{}) })
	runH2Hostile(t, []h2HostileCase{
		{name: "HTTP/1.1 answer to the preface", serve: http11, timeout: long, want: ErrOther, sample: "its first bytes are not an HTTP/2 frame"},
		{name: "HTTP/1.1 answer over TLS", overTLS: true, serve: http11, timeout: long, want: ErrOther, sample: "its first bytes are not an HTTP/2 frame"},
		{name: "PING before settings", serve: pingFirst, timeout: long, want: ErrOther, sample: "its first frame is PING, not SETTINGS"},
		{name: "MAX_FRAME_SIZE 0", serve: answersOK(set(http2.SettingMaxFrameSize, 0)), post: 100, timeout: long, want: ErrOther, sample: "SETTINGS_MAX_FRAME_SIZE of 0 is out of range"},
		{name: "MAX_FRAME_SIZE 2^24", serve: answersOK(set(http2.SettingMaxFrameSize, 1<<24)), post: 100, timeout: long, want: ErrOther, sample: "SETTINGS_MAX_FRAME_SIZE of 16777216 is out of range"},
		{name: "MAX_FRAME_SIZE 0 later", serve: answerAfter(func(p *h2Peer, _ uint32) error {
			return p.fr.WriteSettings(set(http2.SettingMaxFrameSize, 0))
		}), reps: 2, timeout: long, want: ErrOther, sample: "SETTINGS_MAX_FRAME_SIZE of 0 is out of range"},
		{name: "INITIAL_WINDOW_SIZE 2^31", serve: answersOK(set(http2.SettingInitialWindowSize, 1<<31)), timeout: long, want: ErrOther, sample: "the server broke the protocol (FLOW_CONTROL_ERROR)"},
		{name: "frame larger than the client takes", serve: answerEach(func(p *h2Peer, id uint32) error {
			err := headWith(p, id, false, ":status", "200")
			if err == nil {
				err = p.fr.WriteData(id, true, make([]byte, 20<<10))
			}
			return err
		}), timeout: long, want: ErrOther, sample: "(FRAME_SIZE_ERROR): a frame larger than the 16384 bytes the client takes"},
		{name: "PUSH_PROMISE", serve: answerAfter(func(p *h2Peer, id uint32) error {
			return p.fr.WritePushPromise(http2.PushPromiseParam{StreamID: id, PromiseID: 2, EndHeaders: true,
				BlockFragment: p.block(":method", "GET", ":scheme", "http", ":authority", "x", ":path", "/pushed")})
		}), timeout: long, want: ErrOther, sample: "PUSH_PROMISE, though the client's settings disabled push"},
	})
}

// twice calls write twice, unless the first fails.
func twice(write func() error) error {
	if err := write(); err != nil {
		return err
	}
	return write()
}

// A server that grows a send window past 2^31-1 fails the connection (or the stream), at once:
// the window must not wrap round to a negative one that stalls the body until the timeout.
func TestHTTP2HostileWindowOverflow(t *testing.T) {
	testtier.Slow(t)
	const long = 10 * time.Second
	// overflow reads the request's head, then writes frames.
	overflow := func(frames func(p *h2Peer, id uint32) error) func(c net.Conn) {
		return func(c net.Conn) {
			defer c.Close()
			p := hostilePeer(c)
			if p == nil {
				return
			}
			if id := p.request(); id != 0 && frames(p, id) == nil {
				drain(c)
			}
		}
	}
	runH2Hostile(t, []h2HostileCase{
		{name: "connection's window", post: 200 << 10, timeout: long, want: ErrOther, sample: "WINDOW_UPDATE takes the connection's send window past 2^31-1",
			serve: overflow(func(p *h2Peer, _ uint32) error {
				return twice(func() error { return p.fr.WriteWindowUpdate(0, 1<<31-1) })
			})},
		{name: "stream's window", post: 200 << 10, timeout: long, want: ErrOther, sample: "WINDOW_UPDATE takes the stream's send window past 2^31-1",
			serve: overflow(func(p *h2Peer, id uint32) error {
				return twice(func() error { return p.fr.WriteWindowUpdate(id, 1<<31-1) })
			})},
		{name: "stream's window by new settings", post: 200 << 10, timeout: long, want: ErrOther, sample: "SETTINGS_INITIAL_WINDOW_SIZE takes a stream's send window past 2^31-1",
			serve: overflow(func(p *h2Peer, id uint32) error {
				err := p.fr.WriteWindowUpdate(id, 1<<31-1-65535) // the window is 2^31-1, less what came
				if err == nil {
					err = p.fr.WriteSettings(set(http2.SettingInitialWindowSize, 1<<31-1))
				}
				return err
			})},
	})
}

// A request whose body waits for a send window that never opens, while its answer's head
// has come, waits parked: it must not wake itself over and over until the timeout.
func TestHTTP2HostileUploadWaitsParked(t *testing.T) {
	testtier.Slow(t)
	addr := serveLoopback(t, func(c net.Conn) {
		defer c.Close()
		p := hostilePeer(c, set(http2.SettingInitialWindowSize, 0))
		if id := p.request(); id != 0 && headWith(p, id, false, ":status", "200") == nil {
			drain(c)
		}
	})
	c := testH2Client(t, Config{Timeout: 2 * time.Second}, &connStats{})
	req, resp := h2Request(t, "http://"+addr+"/")
	req.Header.SetMethod("POST")
	req.SetBody([]byte("the body"))
	done := make(chan error, 1)
	go func() { done <- c.Do(req, resp) }()
	// The sender is seen waiting in sendRoom, parked, at 20 looks in a row.
	parked := 0
	for looks := 0; parked < 20 && looks < 150; looks++ {
		time.Sleep(10 * time.Millisecond)
		switch sendRoomState() {
		case "select":
			parked++
		case "": // not there yet
		default:
			parked = 0
		}
	}
	if parked < 20 {
		t.Errorf("the request waiting for a send window was parked at only %d looks in a row", parked)
	}
	if err := <-done; !errors.Is(err, errH2Timeout) {
		t.Errorf("error %v, want a timeout", err)
	}
}

// sendRoomState is the state ("select", "runnable"...) of the goroutine in h2Conn.sendRoom;
// "" when none is.
func sendRoomState() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "(*h2Conn).sendRoom") {
			state, _, _ := strings.Cut(g[strings.Index(g, "[")+1:], "]")
			state, _, _ = strings.Cut(state, ",") // "select, 2 minutes"
			return state
		}
	}
	return ""
}

// An answer whose head HTTP/2 calls malformed is a bad response, however it goes on, and the
// connection serves the next request: the fault is the stream's.
func TestHTTP2HostileHeads(t *testing.T) {
	testtier.Slow(t)
	const long = 10 * time.Second
	head := func(fields ...string) func(c net.Conn) {
		return answerEach(func(p *h2Peer, id uint32) error {
			err := headWith(p, id, false, fields...)
			if err == nil {
				err = p.fr.WriteData(id, true, []byte("ok"))
			}
			return err
		})
	}
	trailers := func(end bool, fields ...string) func(c net.Conn) {
		return answerEach(func(p *h2Peer, id uint32) error {
			err := headWith(p, id, false, ":status", "200")
			if err == nil {
				err = p.fr.WriteData(id, false, []byte("ok"))
			}
			if err == nil {
				err = headWith(p, id, end, fields...)
			}
			if err == nil && !end {
				err = p.fr.WriteData(id, true, nil)
			}
			return err
		})
	}
	const bad = "cannot parse response"
	runH2Hostile(t, []h2HostileCase{
		{name: "two :status", serve: head(":status", "200", ":status", "500"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "pseudo-field after a field", serve: head("x-a", "1", ":status", "200"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "request pseudo-field", serve: head(":status", "200", ":path", "/"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "uppercase name", serve: head(":status", "200", "X-Upper", "1"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "uppercase name over TLS", overTLS: true, serve: head(":status", "200", "X-Upper", "1"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "space in a name", serve: head(":status", "200", "x a", "1"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "line break in a value", serve: head(":status", "200", "x-a", "1\r\nx-b: 2"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "connection field", serve: head(":status", "200", "connection", "close"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "transfer-encoding field", serve: head(":status", "200", "transfer-encoding", "chunked"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "two Content-Lengths", serve: head(":status", "200", "content-length", "2", "content-length", "3"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "Content-Length not a number", serve: head(":status", "200", "content-length", "-2"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "pseudo-field in the trailers", serve: trailers(true, ":status", "200"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "trailers that do not end the stream", serve: trailers(false, "x-t", "1"), reps: 2, timeout: long, want: ErrBadResponse, sample: bad},
		{name: "same Content-Length twice", serve: head(":status", "200", "content-length", "2", "content-length", "2"), reps: 2, timeout: long, want: ErrNone, body: 2},
	})
}

// A connection closed inside an answer's body is a bad response, the body cut short, never a
// success nor a connection closed before the answer.
func TestHTTP2HostileBodyCut(t *testing.T) {
	testtier.Slow(t)
	const long = 10 * time.Second
	cut := func(length string) func(c net.Conn) {
		return answerEach(func(p *h2Peer, id uint32) error {
			fields := []string{":status", "200"}
			if length != "" {
				fields = append(fields, "content-length", length)
			}
			err := headWith(p, id, false, fields...)
			if err == nil {
				err = p.fr.WriteData(id, false, []byte("abc"))
			}
			if err == nil {
				err = io.EOF // closes the connection
			}
			return err
		})
	}
	runH2Hostile(t, []h2HostileCase{
		{name: "Content-Length", serve: cut("10"), timeout: long, want: ErrBadResponse, sample: "its length is not its Content-Length"},
		{name: "Content-Length over TLS", overTLS: true, serve: cut("10"), timeout: long, want: ErrBadResponse, sample: "its length is not its Content-Length"},
		{name: "no Content-Length", serve: cut(""), timeout: long, want: ErrBadResponse, sample: "connection closed before its end"},
	})
}

// Frames for a stream after its END_STREAM are not the answer's: its body is what came
// before, however late it is read.
func TestHTTP2HostileFramesAfterEnd(t *testing.T) {
	t.Parallel()
	sent := make(chan struct{})
	addr := serveThenPing(t, func(p *h2Peer, id uint32) error {
		err := headWith(p, id, false, ":status", "200")
		if err == nil {
			err = p.fr.WriteData(id, true, []byte("ok"))
		}
		if err == nil {
			err = p.fr.WriteData(id, true, []byte("more"))
		}
		if err == nil {
			err = headWith(p, id, true, "x-t", "1")
		}
		return err
	}, sent)
	resp, err := h2Get(t, testH2Client(t, Config{Timeout: 10 * time.Second}, &connStats{}), "http://"+addr+"/")
	if err != nil {
		t.Fatal(err)
	}
	await(t, sent, "the server's frames")
	body, err := io.ReadAll(resp.BodyStream())
	if err != nil || string(body) != "ok" {
		t.Errorf("body %q, error %v; want \"ok\"", body, err)
	}
	_ = resp.CloseBodyStream()
}

// A header block that never ends (CONTINUATION frames without END_HEADERS) fails its request
// once it is twice as long as the header list's bound, whatever it decodes to, and ends the
// connection: it is not read for as long as the server goes on.
func TestHTTP2HostileContinuationFlood(t *testing.T) {
	testtier.Slow(t)
	const long = 10 * time.Second
	runH2Hostile(t, []h2HostileCase{
		{name: "fields", serve: answerEach(continuationFlood(0x80 | 2)), timeout: long, want: ErrOther, sample: "response headers longer than 10 MB"},
		{name: "table size updates, which decode to nothing", serve: answerEach(continuationFlood(0x20)), timeout: long, want: ErrOther, sample: "response headers longer than 10 MB"},
	})
}

// A server that sends a stream more than the window the client gave it fails the request: it
// broke flow control, even while the client holds less than it could.
func TestHTTP2HostileDataBeyondWindow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		over int // bytes past the window
		want error
	}{{"within", 0, nil}, {"beyond", 1, errors.New("http2: the server sent more than the stream's flow-control window")}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sent := make(chan struct{})
			addr := serveThenPing(t, func(p *h2Peer, id uint32) error {
				err := headWith(p, id, false, ":status", "200")
				for left := h2StreamWindow + tc.over; err == nil && left > 0; {
					n := min(left, 16<<10)
					if n > 10 {
						err = p.fr.WriteDataPadded(id, false, make([]byte, n-10), make([]byte, 9)) // padding counts
					} else {
						err = p.fr.WriteData(id, false, make([]byte, n))
					}
					left -= n
				}
				if err == nil {
					err = p.fr.WriteData(id, true, nil)
				}
				return err
			}, sent)
			resp, err := h2Get(t, testH2Client(t, Config{Timeout: 10 * time.Second}, &connStats{}), "http://"+addr+"/")
			if err != nil {
				t.Fatal(err)
			}
			await(t, sent, "the server's frames") // none read yet, so no window given back
			_, err = io.Copy(io.Discard, resp.BodyStream())
			if fmt.Sprint(err) != fmt.Sprint(tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			_ = resp.CloseBodyStream()
		})
	}
}

// The counts of GOAWAY and RST_STREAM say what happened to the run's connections and streams:
// a flood of resets for streams that are not the client's counts none, and a connection the
// server sends GOAWAY on many times counts once.
func TestHTTP2HostileCounts(t *testing.T) {
	t.Parallel()
	resets := hostileServer(t, false, h2Flood(func(fr *http2.Framer, i int) error {
		return fr.WriteRSTStream(uint32(1001+2*i), http2.ErrCodeCancel)
	}))
	results, out := run(t, Config{Users: 1, Reps: 2, HTTP2: true}, oneTarget(t, resets))
	checkResults(t, results, 2, ErrNone)
	if out.H2Resets != 0 {
		t.Errorf("%d RST_STREAM counted, want none of the client's streams", out.H2Resets)
	}
	goAways := hostileServer(t, false, answerAfter(func(p *h2Peer, id uint32) error {
		for _, last := range []uint32{1<<31 - 1, id, id} {
			if err := p.fr.WriteGoAway(last, http2.ErrCodeNo, nil); err != nil {
				return err
			}
		}
		return nil
	}))
	results, out = run(t, Config{Users: 1, Reps: 2, HTTP2: true}, oneTarget(t, goAways))
	checkResults(t, results, 2, ErrNone)
	if out.H2GoAways != 2 || out.Connections != 2 {
		t.Errorf("%d GOAWAY counted on %d connections, want 2 on 2", out.H2GoAways, out.Connections)
	}
}

// Answers that cannot be final or cannot end well are bad responses at once: an informational
// status that ends the stream, a 101 (no final answer follows it), a body past its Content-Length that never ends.
func TestHTTP2HostileAnswerEnds(t *testing.T) {
	testtier.Slow(t)
	const long = 10 * time.Second
	const bad = "cannot parse response"
	runH2Hostile(t, []h2HostileCase{
		{name: "103 that ends the stream", reps: 2, timeout: long, want: ErrBadResponse, sample: bad, serve: answerEach(func(p *h2Peer, id uint32) error {
			return headWith(p, id, true, ":status", "103")
		})},
		{name: "101", reps: 2, timeout: long, want: ErrBadResponse, sample: bad, serve: answerEach(func(p *h2Peer, id uint32) error {
			return headWith(p, id, false, ":status", "101")
		})},
		{name: "body past its Content-Length, never ending", timeout: long, want: ErrBadResponse, sample: "its length is not its Content-Length", serve: answerEach(func(p *h2Peer, id uint32) error {
			err := headWith(p, id, false, ":status", "200", "content-length", "2")
			for range 100 {
				if err == nil {
					err = p.fr.WriteData(id, false, make([]byte, 16<<10))
				}
			}
			return err
		})},
	})
}
