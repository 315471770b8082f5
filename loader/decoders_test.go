package loader

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/valyala/fasthttp"
	"github.com/webload/webload/urls"
)

// Users borrow their decoders and the decode cache's scratch for one body and hold none of it
// between bodies (each one lent is given back: none is out after a body), whatever the
// coding, with and without the decode cache (which records a body the first time and compares
// the next ones with it); a decoder given back after a body that did not decode serves the
// next body whole. Two users share the run's decoders.
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
					if b.rd != nil {
						t.Errorf("request %d: the user still holds what reading its body took", i)
					}
					if n := dec.out.Load(); n != 0 {
						t.Errorf("request %d: %d decoders or scratch buffers lent and not given back", i, n)
					}
					b.release()
					fasthttp.ReleaseRequest(req)
					fasthttp.ReleaseResponse(resp)
				}
			})
		}
	}
}

// A compressed body is read to its end, past the end of the compressed stream: the end of a
// chunked body, or whatever the server sent after the stream, so that the connection carries
// the next request as a browser's would. A brotli or deflate decoder stops reading at the end
// of its stream, and the unread end of the body made every request open a connection.
func TestCompressedBodiesKeepTheConnection(t *testing.T) {
	t.Parallel()
	plain := bytes.Repeat([]byte("<p>a paragraph of the page, and a number: 12345</p>\n"), 300)
	for _, enc := range encoders {
		for _, chunked := range []bool{false, true} {
			t.Run(enc.name+" chunked "+strconv.FormatBool(chunked), func(t *testing.T) {
				t.Parallel()
				wire := encodeWith(t, enc.encode, plain)
				site := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Encoding", enc.header)
					w.Header().Set("Content-Type", "text/html")
					if chunked {
						w.(http.Flusher).Flush() // the head goes out alone: the body is chunked
					} else {
						w.Header().Set("Content-Length", strconv.Itoa(len(wire)))
					}
					_, _ = w.Write(wire)
				})
				for _, parse := range []bool{false, true} {
					cfg := Config{Users: 1, Reps: 5, AcceptEncoding: "gzip, deflate, br", Parser: parse}
					results, out := run(t, cfg, []urls.Target{target(t, site.URL+"/page")})
					for i, r := range results {
						if r.Err != ErrNone || r.Decoded != int64(len(plain)) || r.BodyBytes != int64(len(wire)) {
							t.Fatalf("parse %v, request %d: %+v; want %d bytes received, %d decoded", parse, i, r, len(wire), len(plain))
						}
					}
					if out.Connections != 1 {
						t.Errorf("parse %v: %d requests opened %d connections, want 1", parse, len(results), out.Connections)
					}
				}
			})
		}
	}
}
