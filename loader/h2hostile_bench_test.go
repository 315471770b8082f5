package loader

import (
	"errors"
	"net"
	"testing"
	"time"
)

// What a request costs the client in memory when the server answers with a header block
// meant to exhaust it: an HPACK bomb (a million references to a 4 KB field, 4 GB of fields in
// 1 MB) and a CONTINUATION flood that never ends its block. Each request fails; B/op is the
// figure to watch (go test -run '^$' -bench HTTP2Hostile -benchtime 20x ./loader/).
func BenchmarkHTTP2HostileHeaders(b *testing.B) {
	for _, bc := range []struct {
		name  string
		serve func(c net.Conn)
	}{
		{"HPACK bomb", answerEach(hpackBomb)},
		{"CONTINUATION flood", answerEach(continuationFlood(0x80 | 2))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			addr := serveLoopback(b, bc.serve)
			c := testH2Client(b, Config{Timeout: 10 * time.Second}, &connStats{})
			req, resp := h2Request(b, "http://"+addr+"/")
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Do(req, resp); err == nil || errors.Is(err, errH2Timeout) {
					b.Fatalf("error %v, want the headers refused", err)
				}
			}
		})
	}
}
