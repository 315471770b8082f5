package loader

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// Whatever frames a server answers the first request with, the HTTP/2 client returns an
// answer or an error within the request's timeout, and never panics. Most mutations end in a
// timeout, so the fuzzer runs a few inputs a second.
func FuzzH2Answer(f *testing.F) {
	frames := func(write func(fr *http2.Framer, block func(...string) []byte)) []byte {
		var out, head bytes.Buffer
		enc := hpack.NewEncoder(&head)
		block := func(fields ...string) []byte {
			head.Reset()
			for i := 0; i+1 < len(fields); i += 2 {
				_ = enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
			}
			return bytes.Clone(head.Bytes())
		}
		write(http2.NewFramer(&out, nil), block)
		return out.Bytes()
	}
	f.Add(frames(func(fr *http2.Framer, block func(...string) []byte) {
		_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, EndHeaders: true, BlockFragment: block(":status", "200", "content-length", "2")})
		_ = fr.WriteData(1, true, []byte("ok"))
	}))
	f.Add(frames(func(fr *http2.Framer, block func(...string) []byte) {
		b := block(":status", "200", "x-a", "1")
		_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b[:3]})
		_ = fr.WriteContinuation(1, true, b[3:])
		_ = fr.WriteData(1, false, []byte("o"))
		_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, EndHeaders: true, EndStream: true, BlockFragment: block("x-t", "2")})
	}))
	f.Add(frames(func(fr *http2.Framer, block func(...string) []byte) {
		_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, EndHeaders: true, BlockFragment: block(":status", "103")})
		_ = fr.WritePing(false, [8]byte{1})
		_ = fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1}, http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 0})
		_ = fr.WriteWindowUpdate(0, 100)
		_ = fr.WriteRSTStream(1, http2.ErrCodeRefusedStream)
	}))
	f.Add(frames(func(fr *http2.Framer, block func(...string) []byte) {
		_ = fr.WriteData(1, false, []byte("early"))
		_ = fr.WriteGoAway(0, http2.ErrCodeProtocol, []byte("debug"))
	}))
	f.Fuzz(func(t *testing.T, answer []byte) { fuzzH2Answer(t, answer) })
}

func fuzzH2Answer(t *testing.T, answer []byte) {
	addr := serveLoopback(t, func(c net.Conn) {
		defer c.Close()
		if _, id := h2cFirstRequest(c); id == 0 {
			return
		}
		if _, err := c.Write(answer); err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, c) // until the client closes the connection
	})
	resp, err := h2Get(t, testH2Client(t, Config{Timeout: 200 * time.Millisecond}, &connStats{}), "http://"+addr+"/")
	if err != nil {
		return
	}
	_, _ = io.Copy(io.Discard, resp.BodyStream())
	_ = resp.CloseBodyStream()
}
