package loader

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// -g shows the response head as it came on the wire: the headers the server sent, in its
// order, and none that the HTTP library would add (Content-Type, Server, Date...); secrets
// are hidden.
func TestProbeShowsWireHead(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, answer, want string
	}{
		{
			"minimal", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
			"HTTP/1.1 200 OK\nContent-Length: 2\n",
		},
		{
			"order and case kept, cookie hidden",
			"HTTP/1.1 404 Not Here\r\nx-trace: 1\r\nSet-Cookie: sid=secret\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 404 Not Here\nx-trace: 1\nSet-Cookie: ***\nContent-Length: 0\n",
		},
		{
			"bare LF", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok",
			"HTTP/1.1 200 OK\nContent-Length: 2\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
				_, err := io.WriteString(conn, tc.answer)
				return err == nil
			})
			p, err := ProbeOnce(Config{Timeout: 5 * time.Second}, rawTarget(t, srv.url("/")))
			if err != nil {
				t.Fatal(err)
			}
			if p.Response != tc.want {
				t.Errorf("response head\n%q, want\n%q", p.Response, tc.want)
			}
		})
	}
}
