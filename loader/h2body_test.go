package loader

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/http2"
)

// An HTTP/2 body that came whole before it is read is counted and dropped at once only when
// reading it would give its bytes and then its end: when its length is the one declared,
// within MaxBody, with no content coding to decode. Any other body is read as it always was,
// and both ways give the same figures and errors.
func TestHTTP2WholeBody(t *testing.T) {
	t.Parallel()
	zipped := gzipped(t, "hello, hello, hello")
	head := func(p *h2Peer, id uint32, end bool, fields ...string) error {
		return p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: end,
			BlockFragment: p.block(append([]string{":status", "200"}, fields...)...)})
	}
	answer := func(body string, end bool, fields ...string) func(p *h2Peer, id uint32) error {
		return func(p *h2Peer, id uint32) error {
			err := head(p, id, false, fields...)
			if err == nil {
				err = p.fr.WriteData(id, end, []byte(body))
			}
			return err
		}
	}
	tests := []struct {
		name              string
		frames            func(p *h2Peer, id uint32) error
		maxBody           int64
		taken             bool // counted without reading it
		received, decoded int64
		fails             string // in the error, "" for none
		timeout           time.Duration
	}{
		{name: "its declared length", frames: answer("ok", true, "content-length", "2"), taken: true, received: 2, decoded: 2},
		{name: "no length declared", frames: answer("ok", true), taken: true, received: 2, decoded: 2},
		{name: "empty", frames: func(p *h2Peer, id uint32) error { return head(p, id, true, "content-length", "0") }, taken: true},
		{name: "a content coding not asked for", frames: answer("ok", true, "content-encoding", "zstd"), taken: true, received: 2, decoded: 2},
		{name: "trailers", taken: true, received: 2, decoded: 2, frames: func(p *h2Peer, id uint32) error {
			err := answer("ok", false, "content-length", "2")(p, id)
			if err == nil {
				err = p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true, BlockFragment: p.block("x-t", "1")})
			}
			return err
		}},
		{name: "reset after its end", taken: true, received: 2, decoded: 2, frames: func(p *h2Peer, id uint32) error {
			err := answer("ok", true, "content-length", "2")(p, id)
			if err == nil {
				err = p.fr.WriteRSTStream(id, http2.ErrCodeNo)
			}
			return err
		}},
		{name: "within MaxBody", frames: answer("ok", true, "content-length", "2"), maxBody: 2, taken: true, received: 2, decoded: 2},
		{name: "shorter than declared", frames: answer("ok", true, "content-length", "10"), received: 2, decoded: 2,
			fails: "a body of 2 bytes where Content-Length says 10"},
		{name: "longer than declared", frames: answer("ok", true, "content-length", "1"), received: 2, decoded: 2,
			fails: "a body of 2 bytes where Content-Length says 1"},
		{name: "past MaxBody", frames: answer("ok", true, "content-length", "2"), maxBody: 1, received: 1, decoded: 1,
			fails: "body size exceeds the given limit"},
		{name: "gzip", frames: answer(string(zipped), true, "content-encoding", "gzip"), received: int64(len(zipped)), decoded: 19},
		{name: "not ended", frames: answer("ok", false, "content-length", "2"), timeout: 200 * time.Millisecond, received: 2, decoded: 2,
			fails: "timeout"},
		{name: "reset inside", frames: func(p *h2Peer, id uint32) error {
			err := answer("ok", false, "content-length", "4")(p, id)
			if err == nil {
				err = p.fr.WriteRSTStream(id, http2.ErrCodeInternal)
			}
			return err
		}, received: 2, decoded: 2, fails: "INTERNAL_ERROR"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			// answered sends the request and returns the response once every frame of its
			// answer was taken in.
			answered := func() *fasthttp.Response {
				sent := make(chan struct{})
				addr := serveThenPing(t, tc.frames, sent)
				c := testH2Client(t, Config{Timeout: timeout}, &connStats{})
				resp, err := h2Get(t, c, "http://"+addr+"/")
				if err != nil {
					t.Fatal(err)
				}
				await(t, sent, "the server's frames")
				return resp
			}
			resp := answered()
			b := body{maxBody: tc.maxBody}
			if _, taken := b.whole(resp.BodyStream(), resp.Header.ContentEncoding(), false); taken != tc.taken {
				t.Errorf("counted without reading it: %v, want %v", taken, tc.taken)
			}
			_ = resp.CloseBodyStream()

			resp = answered()
			b = body{maxBody: tc.maxBody}
			size, err := b.read(resp, false)
			if size.received != tc.received || size.decoded != tc.decoded {
				t.Errorf("%d bytes received, %d decoded; want %d, %d", size.received, size.decoded, tc.received, tc.decoded)
			}
			if (err == nil) != (tc.fails == "") || !strings.Contains(fmt.Sprint(err), tc.fails) {
				t.Errorf("error %v, want one saying %q", err, tc.fails)
			}
		})
	}
}
