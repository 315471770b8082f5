package loader

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/http2"
)

// Helpers shared by the HTTP/2 tests: servers that write their own frames, and a client that
// sends requests to them one by one.

// serveH2cPeer serves each h2c connection made to a new loopback listener with serve, then
// closes it; it returns the listener's address.
func serveH2cPeer(t *testing.T, serve func(p *h2Peer)) string {
	t.Helper()
	return serveLoopback(t, func(c net.Conn) {
		defer c.Close()
		if p := newH2Peer(c); p != nil {
			serve(p)
		}
	})
}

// serveH2c serves every request of each h2c connection with answer (see serveH2cPeer); when
// closed is not nil, it gets a value each time the client closes a connection.
func serveH2c(t *testing.T, answer func(p *h2Peer, id uint32) error, closed chan<- struct{}) string {
	t.Helper()
	return serveH2cPeer(t, func(p *h2Peer) {
		if p.each(answer) && closed != nil {
			closed <- struct{}{}
		}
	})
}

// each answers every request with answer until one fails or the connection ends; it says
// whether the connection ended.
func (p *h2Peer) each(answer func(p *h2Peer, id uint32) error) bool {
	for id := p.request(); id != 0; id = p.request() {
		if answer(p, id) != nil {
			return false
		}
	}
	return true
}

// answerOK answers a request with a 200 of "ok".
func answerOK(p *h2Peer, id uint32) error { return p.answer(id, "ok") }

// h2cFirstRequest opens the server's side of c (see h2cFramer) and reads frames, acknowledging
// none, up to the first request's HEADERS; its stream is 0 when the client went away.
func h2cFirstRequest(c net.Conn) (*http2.Framer, uint32) {
	fr := h2cFramer(c)
	if fr == nil {
		return nil, 0
	}
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return fr, 0
		}
		if h, ok := f.(*http2.HeadersFrame); ok {
			return fr, h.StreamID
		}
	}
}

// testH2Client makes an HTTP/2 client with cfg that counts into stats, and closes its idle
// connections when the test ends.
func testH2Client(tb testing.TB, cfg Config, stats *connStats) *h2Client {
	tb.Helper()
	c, err := newH2Client(&cfg, stats)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.CloseIdleConnections)
	return c
}

// h2Request is a GET for url and a response to read it into, both released when the test
// ends.
func h2Request(tb testing.TB, url string) (*fasthttp.Request, *fasthttp.Response) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	tb.Cleanup(func() {
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(resp)
	})
	req.SetRequestURI(url)
	return req, resp
}

// h2Get sends a GET for url with c and returns the response (released when the test ends) and
// the error.
func h2Get(tb testing.TB, c *h2Client, url string) (*fasthttp.Response, error) {
	req, resp := h2Request(tb, url)
	return resp, c.Do(req, resp)
}

// serveThenPing serves the first request of each connection (see hostilePeer) with frames,
// then a PING; once the client answers it, having taken the frames before it, it closes sent
// and reads until the client closes the connection. It returns the address.
func serveThenPing(t *testing.T, frames func(p *h2Peer, id uint32) error, sent chan<- struct{}) string {
	t.Helper()
	return serveLoopback(t, func(c net.Conn) {
		defer c.Close()
		p := hostilePeer(c)
		if p == nil {
			return
		}
		id := p.request()
		if id == 0 {
			return
		}
		err := frames(p, id)
		if err == nil {
			err = p.fr.WritePing(false, [8]byte{1})
		}
		for f := p.next(); err == nil && f != nil; f = p.next() {
			if _, ok := f.(*http2.PingFrame); ok {
				close(sent)
				drain(c)
				return
			}
		}
	})
}

// hpackBomb answers with one field of 4 KB in the table, then a million references to it:
// 4 GB of fields in 1 MB.
func hpackBomb(p *h2Peer, id uint32) error {
	block := p.block(":status", "200", "x-bomb", strings.Repeat("b", 4000))
	err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block})
	refs := bytes.Repeat([]byte{0x80 | 62}, 16<<10)
	for i := 0; err == nil && i < 64; i++ {
		err = p.fr.WriteContinuation(id, i == 63, refs)
	}
	return err
}

// continuationFlood answers with a head that never ends: 10000 CONTINUATION frames of 16 KB
// of fill (160 MB), none with END_HEADERS.
func continuationFlood(fill byte) func(p *h2Peer, id uint32) error {
	return func(p *h2Peer, id uint32) error {
		err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: p.block(":status", "200")})
		frag := bytes.Repeat([]byte{fill}, 16<<10)
		for i := 0; err == nil && i < 10000; i++ {
			err = p.fr.WriteContinuation(id, false, frag)
		}
		return err
	}
}
