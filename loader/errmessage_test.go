package loader

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/urls"
	"golang.org/x/net/http2"
)

// Error samples reach the text, JSON and HTML reports, so a response that does not parse is
// described by its class, never by its bytes: they may hold session cookies or tokens.
func TestErrorSamplesQuoteNoResponseBytes(t *testing.T) {
	t.Parallel()
	const head = "HTTP/1.1 200 OK\r\nSet-Cookie: session=SECRET-cookie\r\n"
	cases := []struct {
		name  string
		reply string
		want  string
	}{
		{"header line without colon", head + "Broken SECRET-line\r\nContent-Length: 2\r\n\r\nok",
			"cannot parse response headers: malformed header line"},
		{"control byte in a header name", head + "Bad\x01Key: SECRET-value\r\nContent-Length: 2\r\n\r\nok",
			"cannot parse response headers: malformed header line"},
		{"NUL in a header value", head + "X-Token: a\x00SECRET-value\r\nContent-Length: 2\r\n\r\nok",
			"cannot parse response headers: malformed header line"},
		{"bad status code", "HTTP/1.1 2x0 SECRET-reason\r\nSet-Cookie: session=SECRET-cookie\r\n\r\n",
			"cannot parse response headers: malformed status line"},
		{"unknown protocol", "SECRET-proto/1.1 200 OK\r\nSet-Cookie: session=SECRET-cookie\r\n\r\n",
			"cannot parse response headers: malformed status line"},
		{"no space in the status line", "SECRET-garbage\r\n\r\n",
			"cannot parse response headers: malformed status line"},
		{"non-numeric content-length", head + "Content-Length: 2SECRET\r\n\r\nok",
			"cannot parse response headers: bad Content-Length"},
		{"two content-lengths", head + "Content-Length: 2\r\nContent-Length: 3\r\n\r\nok",
			"cannot parse response headers: bad Content-Length"},
		{"unknown transfer-encoding", head + "Transfer-Encoding: SECRET-coding\r\n\r\nok",
			"cannot parse response headers: bad Transfer-Encoding"},
		{"headers cut short", head + "X-Token: SECRET-value\r\n",
			"cannot parse response headers: connection closed inside the headers"},
		{"broken chunk size", head + "Transfer-Encoding: chunked\r\n\r\nSECRET\r\nhello\r\n0\r\n\r\n",
			"cannot read response body: broken chunked encoding"},
		{"broken trailer", head + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nTrailer SECRET-trailer\r\n\r\n",
			"cannot parse response headers: malformed header line"},
		{"trailer that cannot be one", head + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Forwarded-SECRET: SECRET-trailer\r\n\r\n",
			"cannot parse response headers: a field that cannot be a trailer"},
		{"trailer field naming one that cannot be a trailer", head + "Trailer: SECRET-name, Set-Cookie\r\nContent-Length: 2\r\n\r\nok",
			"cannot parse response headers: a field that cannot be a trailer"},
		{"body shorter than its length", head + "Content-Length: 100\r\n\r\nSECRET-body",
			"cannot read response body: connection closed before its end"},
		{"headers longer than the buffer", head + "X-Long: SECRET" + strings.Repeat("a", 8<<10) + "\r\n\r\n",
			"response headers longer than the 4096-byte header buffer (raise HeaderBuffer, up to 1MB)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Each answer is written as it is and the connection closed: most break HTTP.
			srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
				_, _ = io.WriteString(conn, tc.reply)
				return false
			})
			results, out := run(t, Config{Users: 1, Reps: 2, HeaderBuffer: 4096, Timeout: 5 * time.Second}, []urls.Target{rawTarget(t, srv.url("/"))})
			if len(results) != 2 {
				t.Fatalf("%d results, want 2", len(results))
			}
			for _, r := range results {
				if r.Err != ErrBadResponse {
					t.Fatalf("result %+v, want a bad response", r)
				}
			}
			if got := out.ErrorSamples[ErrBadResponse]; got != tc.want {
				t.Errorf("sample %q, want %q", got, tc.want)
			}
			for k, msg := range out.ErrorSamples {
				if strings.Contains(msg, "SECRET") {
					t.Errorf("%v sample quotes the response: %q", k, msg)
				}
			}
		})
	}
}

// An HTTP/2 server's GOAWAY carries free bytes ("debug data") that net/http's errors quote:
// the sample names the GOAWAY and its code only.
func TestHTTP2GoAwayQuotesNoDebugData(t *testing.T) {
	t.Parallel()
	addr := serveLoopback(t, goAway)
	results, out := run(t, Config{Users: 1, Reps: 2, HTTP2: true, Timeout: 5 * time.Second}, []urls.Target{rawTarget(t, "http://"+addr+"/")})
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		if r.Err != ErrOther {
			t.Fatalf("result %+v, want a failure of kind other", r)
		}
		if got, want := out.ErrorSamples[r.Err], "http2: server sent GOAWAY (INTERNAL_ERROR) and closed the connection"; got != want {
			t.Errorf("sample %q, want %q", got, want)
		}
	}
}

// goAway plays an HTTP/2 server (h2c, prior knowledge) that answers the first request with a
// GOAWAY holding a secret in its debug data, then closes the connection.
func goAway(c net.Conn) {
	defer c.Close()
	if fr, id := h2cFirstRequest(c); id != 0 {
		_ = fr.WriteGoAway(id, http2.ErrCodeInternal, []byte("SECRET-debug"))
	}
}
