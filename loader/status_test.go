package loader

import (
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/webload/webload/urls"
)

// A status line whose code is not a final HTTP status is a bad response, never a success:
// 000 is not a 200 and 099 not a 99. A 101 to a request that asked for no upgrade leaves the
// connection speaking who knows what, so it is a bad response and the connection is not used
// again.
func TestBadStatusCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		answer    string
		want      ErrKind
		status    uint16
		wantConns int64 // connections the two requests took
	}{
		{"200 for comparison", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", ErrNone, 200, 1},
		{"000", "HTTP/1.1 000 Zero\r\nContent-Length: 2\r\n\r\nok", ErrBadResponse, 0, 2},
		{"000 without a reason", "HTTP/1.1 000\r\nContent-Length: 2\r\n\r\nok", ErrBadResponse, 0, 2},
		{"099", "HTTP/1.1 099 Early\r\nContent-Length: 2\r\n\r\nok", ErrBadResponse, 0, 2},
		{"101 to a plain GET", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", ErrBadResponse, 0, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newRawServer(t, func(conn net.Conn, _ *http.Request, _ int) bool {
				_, err := io.WriteString(conn, tc.answer)
				return err == nil
			})
			results, _ := run(t, Config{Users: 1, Reps: 2}, []urls.Target{rawTarget(t, srv.url("/"))})
			if len(results) != 2 {
				t.Fatalf("%d results, want 2", len(results))
			}
			for _, r := range results {
				if r.Err != tc.want || r.Status != tc.status || r.Resent {
					t.Errorf("result %+v, want kind %v, status %d, not resent", r, tc.want, tc.status)
				}
			}
			if got := srv.conns.Load(); got != tc.wantConns {
				t.Errorf("%d connections, want %d", got, tc.wantConns)
			}
			if got := srv.reqs.Load(); got != 2 {
				t.Errorf("server read %d requests, want 2", got)
			}
		})
	}
}
