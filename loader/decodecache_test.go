package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/valyala/fasthttp"
)

// decodeStep is one answer of a decode-cache test: the compressed bytes the server sends and
// how (declared length or chunked, whole or cut by a closed connection). Reading it must give
// what decoding it apart gives: the cache changes nothing but the work.
type decodeStep struct {
	wire    []byte
	chunked bool
	cut     int // with a Content-Length: close the connection after this many bytes, 0 for none
	keep    bool
	path    string // where it is served; "/page" when empty
}

// A compressed body that repeats the one kept for its URL is not decoded again, and whatever
// the body does instead (changes, grows, shrinks, breaks, goes empty, stops decoding, comes
// chunked) reads exactly as it would without the cache: same sizes, same kept page, same
// failure.
func TestDecodeCache(t *testing.T) {
	t.Parallel()
	pageA := []byte(strings.Repeat("<p>the first page, with text that compresses</p>\n", 600))
	pageB := bytes.ToUpper(pageA)
	for _, enc := range encoders {
		t.Run(enc.name, func(t *testing.T) {
			t.Parallel()
			a, b := encodeWith(t, enc.encode, pageA), encodeWith(t, enc.encode, pageB)
			longer := encodeWith(t, enc.encode, append(bytes.Clone(pageA), "<p>more</p>"...))
			flipped := bytes.Clone(a)
			flipped[len(a)/2] ^= 0xff
			same := func(keep bool) decodeStep { return decodeStep{wire: a, keep: keep} }
			cases := []struct {
				name  string
				steps []decodeStep
				hits  int64
			}{
				{"repeats", []decodeStep{same(true), same(true), same(true)}, 2},
				{"repeats chunked", []decodeStep{same(true), {wire: a, chunked: true, keep: true}}, 1},
				{"repeats unkept", []decodeStep{same(false), same(false)}, 1},
				{"kept then unkept", []decodeStep{same(true), same(false)}, 1},
				{"unkept then kept", []decodeStep{same(false), same(true), same(true)}, 0},
				{"changes", []decodeStep{same(true), {wire: b, keep: true}, same(true), {wire: b, keep: true}}, 0},
				{"grows", []decodeStep{same(true), {wire: longer, keep: true}}, 0},
				{"cut short", []decodeStep{same(true), {wire: a[:len(a)-8], keep: true}, same(true)}, 1},
				{"flipped", []decodeStep{same(true), {wire: flipped, keep: true}, same(true)}, 1},
				{"empty", []decodeStep{same(true), {wire: []byte{}, keep: true}, same(true)}, 1},
				{"broken half way", []decodeStep{same(true), {wire: a, cut: len(a) / 2, keep: true}, same(true)}, 1},
				{"broken at once", []decodeStep{same(false), {wire: a, cut: 1}}, 0},
				{"lent, then read over", []decodeStep{same(true), same(true), {wire: flipped, keep: true}, same(true)}, 2},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					checkDecodeSteps(t, enc.header, enc.decode, tc.steps, tc.hits)
				})
			}
		})
	}
}

// The decode cache keeps no body past its bounds: the largest compressed body, the bytes held
// and the URLs held. What it does not keep is decoded on every visit, as before it existed.
func TestDecodeCacheBounds(t *testing.T) {
	t.Parallel()
	gz := encoders[0]
	var pageA strings.Builder
	for i := range 400 {
		fmt.Fprintf(&pageA, "<p>line %d of a page</p>\n", i*i)
	}
	pageB := strings.Repeat("<p>another page</p>\n", 300)
	a, b := encodeWith(t, gz.encode, []byte(pageA.String())), encodeWith(t, gz.encode, []byte(pageB))
	if len(a) <= len(b) {
		t.Fatalf("page a compresses to %d bytes, b to %d: a must be the larger", len(a), len(b))
	}
	at := func(path string, wire []byte) decodeStep { return decodeStep{wire: wire, keep: true, path: path} }
	room := decodeLimits{bytes: 1 << 20, body: 1 << 20, urls: 100}
	cases := []struct {
		name   string
		limits decodeLimits
		hits   int64
	}{
		{"within them", room, 2},
		{"a body past the largest", decodeLimits{bytes: room.bytes, body: len(a) - 1, urls: room.urls}, 1},
		{"bytes for b alone", decodeLimits{bytes: len(b) + len(pageB), body: room.body, urls: room.urls}, 1},
		{"one URL", decodeLimits{bytes: room.bytes, body: room.body, urls: 1}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			steps := []decodeStep{at("/a", a), at("/b", b), at("/a", a), at("/b", b)}
			checkDecodeStepsWithin(t, tc.limits, gz.header, gz.decode, steps, tc.hits)
		})
	}
}

// checkDecodeSteps serves steps in turn at one URL, reads each answer with a body that shares
// a decode cache, and checks what each read gives and how often the cache was hit.
func checkDecodeSteps(t *testing.T, header string, decode func(io.Reader) (io.Reader, error), steps []decodeStep, hits int64) {
	t.Helper()
	limits := decodeLimits{bytes: maxDecodedBytes, body: maxDecodedBody, urls: maxDecodedURLs}
	checkDecodeStepsWithin(t, limits, header, decode, steps, hits)
}

// checkDecodeStepsWithin is checkDecodeSteps with a cache of the given bounds.
func checkDecodeStepsWithin(t *testing.T, limits decodeLimits, header string, decode func(io.Reader) (io.Reader, error), steps []decodeStep, hits int64) {
	t.Helper()
	var next atomic.Int32
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		s := steps[next.Add(1)-1]
		w.Header().Set("Content-Encoding", header)
		w.Header().Set("Content-Type", "text/html")
		switch {
		case s.chunked:
			w.(http.Flusher).Flush()
			_, _ = w.Write(s.wire)
		case s.cut > 0:
			conn, rw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Encoding: %s\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", header, len(s.wire))
			_, _ = rw.Write(s.wire[:s.cut])
			_ = rw.Flush()
		default:
			w.Header().Set("Content-Length", strconv.Itoa(len(s.wire)))
			_, _ = w.Write(s.wire)
		}
	})
	for _, shared := range []bool{false, true} {
		next.Store(0)
		readDecodeSteps(t, site.URL, shared, limits, decode, steps, hits)
	}
}

// readDecodeSteps reads steps from url, each with a body of its own as each user has (the cache
// is what they share), or all with one body as one user reads them in turn.
func readDecodeSteps(t *testing.T, url string, oneBody bool, limits decodeLimits, decode func(io.Reader) (io.Reader, error), steps []decodeStep, hits int64) {
	t.Helper()
	cache := newDecodeCache(limits)
	client := &fasthttp.Client{StreamResponseBody: true}
	pages := &sync.Pool{}
	one := body{decoded: cache, pages: pages}
	for i, s := range steps {
		bd := &one
		if !oneBody {
			bd = &body{decoded: cache, pages: pages}
		}
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		path := s.path
		if path == "" {
			path = "/page"
		}
		req.SetRequestURI(url + path)
		req.Header.Set("Accept-Encoding", "gzip, deflate, br")
		if err := client.Do(req, resp); err != nil {
			t.Fatalf("one body %v, step %d: %v", oneBody, i, err)
		}
		bd.uri = req.URI()
		size, err := bd.read(resp, s.keep)

		var bad errBadEncoding
		plain, refErr := decodeApart(decode, s.wire)
		switch {
		case s.cut > 0:
			if err == nil || errors.As(err, &bad) || size.received != int64(s.cut) {
				t.Errorf("one body %v, step %d: error %v after %d bytes, want a broken connection after %d", oneBody, i, err, size.received, s.cut)
			}
		case refErr != nil:
			if !errors.As(err, &bad) {
				t.Errorf("one body %v, step %d: error %v, want a body that does not decode (%v)", oneBody, i, err, refErr)
			}
		case err != nil:
			t.Errorf("one body %v, step %d: %v", oneBody, i, err)
		case size.received != int64(len(s.wire)) || size.decoded != int64(len(plain)):
			t.Errorf("one body %v, step %d: %d bytes received, %d decoded, want %d and %d", oneBody, i, size.received, size.decoded, len(s.wire), len(plain))
		case s.keep && !bytes.Equal(bd.page, plain):
			t.Errorf("one body %v, step %d: the kept page (%d bytes) is not the %d decoded", oneBody, i, len(bd.page), len(plain))
		case !s.keep && len(bd.page) != 0:
			t.Errorf("one body %v, step %d: kept %d bytes of a body read without keeping", oneBody, i, len(bd.page))
		}
		bd.release()
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(resp)
	}
	if got := cache.hits.Load(); got != hits {
		t.Errorf("one body %v: %d answers taken from the cache, want %d", oneBody, got, hits)
	}
}

// decodeApart decodes wire with a plain decoder; an empty body is empty, as body.read takes it.
func decodeApart(decode func(io.Reader) (io.Reader, error), wire []byte) ([]byte, error) {
	if len(wire) == 0 {
		return nil, nil
	}
	r, err := decode(bytes.NewReader(wire))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
