package loader

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
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
	bombs := map[string]struct {
		body    []byte
		decoded int64 // its size once decoded
	}{
		"br": {brotliBomb(t, 8<<10), 8 << 30}, // 8 GiB from about 100 KB
		// 2 GiB from about 2 MB. Zeros decode at several GB/s: a 256 MiB bomb once decoded whole
		// in 47 ms, within the 50 ms timeout below.
		"gzip": {gzipBomb(t, 2<<10), 2 << 30},
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
				_, _ = w.Write(bomb.body)
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
			// The timeout stopped the decoding, however slowly the machine decoded: unbounded, it
			// would have decoded the whole bomb. (The connection's read deadline often stops it
			// first; TestDecodeGuard checks the decoder's own look at the clock.)
			if tc.want == ErrTimeout && r.Decoded >= bomb.decoded {
				t.Errorf("decoded all %d bytes of the bomb before the timeout was seen", r.Decoded)
			}
			if tc.want == ErrTooLarge && r.Decoded > tc.maxBody {
				t.Errorf("decoded %d bytes past the cap of %d", r.Decoded, tc.maxBody)
			}
		})
	}
}

// The guard around a decoder stops it at the first look at the clock past the request's
// deadline, or one byte past MaxBody, and lets a body within both bounds decode to its end.
// Deadlines well past or far ahead, not a measured time, decide each case.
func TestDecodeGuard(t *testing.T) {
	t.Parallel()
	const size = 16 * decodeCheck // what the decoder would give unbounded
	cases := []struct {
		name      string
		deadline  time.Time
		max       int64
		wantErr   error
		wantMost  int64 // bytes decoded at most
		wantLeast int64
	}{
		{"no deadline", time.Time{}, 0, nil, size, size},
		{"deadline far ahead", time.Now().Add(time.Hour), 0, nil, size, size},
		// Stopped at the first look at the clock, after decodeCheck bytes and the read that
		// passed them (io.Copy reads at most 32 KiB at a time).
		{"deadline passed", time.Now().Add(-time.Hour), 0, errDecodeTimeout, decodeCheck + 32<<10, decodeCheck},
		{"over the cap", time.Time{}, 3 * decodeCheck, errTooLarge, 3*decodeCheck + 1, 3*decodeCheck + 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := guard{r: bytes.NewReader(make([]byte, size)), max: tc.max, deadline: tc.deadline, check: decodeCheck}
			n, err := io.Copy(io.Discard, &g)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
			if n < tc.wantLeast || n > tc.wantMost {
				t.Errorf("decoded %d bytes, want %d to %d", n, tc.wantLeast, tc.wantMost)
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
