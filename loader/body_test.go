package loader

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"testing"
	"time"

	brrr "github.com/molecule-man/go-brrr"

	"github.com/webload/webload/urls"
)

// brotliBomb is a brotli stream of mib MiB of zeros, about 13 bytes on the wire per MiB. After a
// flush, the encoder writes the same bytes for every further MiB of zeros, so the stream is a
// few MiB compressed and then one MiB's bytes repeated: gigabytes cost no time to make.
func brotliBomb(t *testing.T, mib int) []byte {
	t.Helper()
	zeros := make([]byte, 1<<20)
	var buf bytes.Buffer
	w, err := brrr.NewWriter(&buf, 5)
	if err != nil {
		t.Fatal(err)
	}
	var ends []int
	for range 4 {
		_, _ = w.Write(zeros)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, buf.Len())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	mib3, mib4 := b[ends[1]:ends[2]], b[ends[2]:ends[3]]
	if !bytes.Equal(mib3, mib4) {
		t.Fatal("the brotli encoder no longer repeats itself: the bomb cannot be made this way")
	}
	out := append([]byte(nil), b[:ends[2]]...)
	for range mib - 3 {
		out = append(out, mib4...)
	}
	return append(out, b[ends[3]:]...)
}

// gzipBomb is mib gzip members of 1 MiB of zeros each, about 1 KB each on the wire; a gzip body
// may hold several members, which decode as one.
func gzipBomb(t *testing.T, mib int) []byte {
	t.Helper()
	var member bytes.Buffer
	w := gzip.NewWriter(&member)
	_, _ = w.Write(make([]byte, 1<<20))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.Repeat(member.Bytes(), mib)
}

// A compressed body that decodes to gigabytes from a few kilobytes is bounded like any other:
// by the timeout while it decodes, and by MaxBody in decoded bytes.
func TestCompressionBomb(t *testing.T) {
	t.Parallel()
	bombs := map[string][]byte{
		"br":   brotliBomb(t, 8<<10), // 8 GiB from about 100 KB
		"gzip": gzipBomb(t, 256),     // 256 MiB from about 260 KB, which fits in the socket buffers
	}
	cases := []struct {
		name     string
		encoding string
		html     bool // kept for the parser, which reads through another path
		h2       bool // over HTTP/2 (h2c), whose body stream is another
		timeout  time.Duration
		maxBody  int64
		want     ErrKind
	}{
		{"br past the timeout", "br", false, false, 200 * time.Millisecond, 0, ErrTimeout},
		{"br page past the timeout", "br", true, false, 200 * time.Millisecond, 0, ErrTimeout},
		{"br over HTTP/2 past the timeout", "br", false, true, 200 * time.Millisecond, 0, ErrTimeout},
		{"gzip past the timeout", "gzip", false, false, 50 * time.Millisecond, 0, ErrTimeout},
		{"br over the cap", "br", false, false, 60 * time.Second, 32 << 20, ErrTooLarge},
		{"gzip page over the cap", "gzip", true, false, 60 * time.Second, 32 << 20, ErrTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bomb := bombs[tc.encoding]
			handle := func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Encoding", tc.encoding)
				w.Header().Set("Content-Type", "application/octet-stream")
				if tc.html {
					w.Header().Set("Content-Type", "text/html")
				}
				_, _ = w.Write(bomb)
			}
			site := newHitServer(t, handle)
			if tc.h2 {
				site = newH2Server(t, true, handle)
			}
			cfg := Config{Users: 1, Reps: 1, Timeout: tc.timeout, MaxBody: tc.maxBody, AcceptEncoding: "gzip, br",
				Parser: tc.html, HTTP2: tc.h2}
			results, _ := run(t, cfg, []urls.Target{target(t, site.URL+"/bomb")})
			r := results[0]
			if r.Kind != KindURL || r.Err != tc.want {
				t.Fatalf("result %+v, want a failure of kind %v", r, tc.want)
			}
			// A fact about the bound, not a speed: without it the request decodes for seconds.
			if tc.want == ErrTimeout && r.Latency > tc.timeout+2*time.Second {
				t.Errorf("the request took %v, far past its %v timeout", r.Latency, tc.timeout)
			}
			if tc.want == ErrTooLarge && r.Decoded > tc.maxBody {
				t.Errorf("decoded %d bytes past the cap of %d", r.Decoded, tc.maxBody)
			}
		})
	}
}

// An empty body that claims a Content-Encoding is an empty body, as browsers take it: a
// success with nothing decoded, however the server says it is empty.
func TestEmptyCompressedBody(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		encoding string
		chunked  bool // no Content-Length: a chunked body with no chunk
		status   int
	}{
		{"gzip", "gzip", false, 200},
		{"gzip chunked", "gzip", true, 200},
		{"deflate chunked", "deflate", true, 200},
		{"br chunked", "br", true, 200},
		{"gzip 404", "gzip", false, 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			site := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Encoding", tc.encoding)
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(tc.status)
				if tc.chunked {
					w.(http.Flusher).Flush()
				}
			})
			for _, parse := range []bool{false, true} {
				cfg := Config{Users: 1, Reps: 2, AcceptEncoding: "gzip, deflate, br", Parser: parse}
				results, _ := run(t, cfg, []urls.Target{target(t, site.URL+"/empty")})
				for _, r := range results {
					if r.Err != ErrNone || int(r.Status) != tc.status || r.BodyBytes != 0 || r.Decoded != 0 {
						t.Fatalf("parse %v: result %+v, want a %d with an empty body", parse, r, tc.status)
					}
				}
			}
		})
	}
}
