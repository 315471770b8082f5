package loader

import (
	"bytes"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
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
		{"HPACK bomb", answerEach(func(p *h2Peer, id uint32) error {
			block := p.block(":status", "200", "x-bomb", strings.Repeat("b", 4000))
			err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block})
			refs := bytes.Repeat([]byte{0x80 | 62}, 16<<10)
			for i := 0; err == nil && i < 64; i++ {
				err = p.fr.WriteContinuation(id, i == 63, refs)
			}
			return err
		})},
		{"CONTINUATION flood", answerEach(func(p *h2Peer, id uint32) error {
			err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: p.block(":status", "200")})
			frag := bytes.Repeat([]byte{0x80 | 2}, 16<<10)
			for i := 0; err == nil && i < 10000; i++ {
				err = p.fr.WriteContinuation(id, false, frag)
			}
			return err
		})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					conn, err := ln.Accept()
					if err != nil {
						return
					}
					go bc.serve(conn)
				}
			}()
			addr := ln.Addr().String()
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
