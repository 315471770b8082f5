package loader

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/valyala/fasthttp"
)

// Users borrow their decoders and the decode cache's scratch for one body and hold none of it
// between bodies, whatever the coding, with and without the decode cache (which records a
// body the first time and compares the next ones with it); a decoder given back after a body
// that did not decode serves the next body whole. Two users share the run's decoders.
func TestBodiesBorrowDecoders(t *testing.T) {
	t.Parallel()
	plain := bytes.Repeat([]byte("<p>a paragraph of the page, and a number: 12345</p>\n"), 600)
	for _, enc := range encoders {
		for _, cached := range []bool{false, true} {
			t.Run(enc.name+" cache "+strconv.FormatBool(cached), func(t *testing.T) {
				t.Parallel()
				wire := encodeWith(t, enc.encode, plain)
				var broken atomic.Bool // the next answer's body is cut and garbled
				site := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Encoding", enc.header)
					w.Header().Set("Content-Type", "text/html")
					body := wire
					if broken.Swap(false) {
						body = append(bytes.Repeat([]byte{0xff}, 16), wire[:len(wire)/2]...)
					}
					w.Header().Set("Content-Length", strconv.Itoa(len(body)))
					_, _ = w.Write(body)
				})
				var dec decoders
				pages := &sync.Pool{}
				var cache *decodeCache
				if cached {
					cache = newDecodeCache(decodeLimits{bytes: 1 << 20, body: 1 << 20, urls: 10})
				}
				users := []*body{{dec: &dec, pages: pages, decoded: cache}, {dec: &dec, pages: pages, decoded: cache}}
				client := &fasthttp.Client{StreamResponseBody: true}
				for i := range 6 {
					bad := i == 3
					broken.Store(bad)
					b := users[i%2]
					req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
					req.SetRequestURI(site.URL + "/page")
					req.Header.Set("Accept-Encoding", "gzip, deflate, br")
					if err := client.Do(req, resp); err != nil {
						t.Fatalf("request %d: %v", i, err)
					}
					b.uri = req.URI()
					size, err := b.read(resp, i%3 == 0)
					switch {
					case bad && err == nil:
						t.Errorf("request %d: a garbled body decoded (%d bytes)", i, size.decoded)
					case !bad && (err != nil || size.decoded != int64(len(plain))):
						t.Errorf("request %d: decoded %d bytes, error %v; want %d", i, size.decoded, err, len(plain))
					}
					if b.lent != (lent{}) || b.cmp != nil || b.rec.lent != nil || b.rec.buf != nil {
						t.Errorf("request %d: the user still holds what it borrowed: decoders %+v, compare buffer %v, recorder %v",
							i, b.lent, b.cmp != nil, b.rec.lent != nil || b.rec.buf != nil)
					}
					b.release()
					fasthttp.ReleaseRequest(req)
					fasthttp.ReleaseResponse(resp)
				}
			})
		}
	}
}
