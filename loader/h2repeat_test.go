package loader

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// h2Scripted is an answer as a test server sends it: a head's block, raw, then a body of "ok"
// and, when trailers is set, that block as the answer's trailers.
type h2Scripted struct{ head, trailers []byte }

// serveScript answers the requests of each connection with script, in order, then ends it.
func serveScript(t *testing.T, script []h2Scripted) string {
	t.Helper()
	return serveH2cPeer(t, func(p *h2Peer) {
		for _, a := range script {
			id := p.request()
			if id == 0 {
				return
			}
			err := p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, BlockFragment: a.head})
			if err == nil {
				err = p.fr.WriteData(id, a.trailers == nil, []byte("ok"))
			}
			if err == nil && a.trailers != nil {
				err = p.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, EndHeaders: true, EndStream: true, BlockFragment: a.trailers})
			}
			if err != nil {
				return
			}
		}
	})
}

// hpackAddedNamed is a literal field with a name of its own that the table takes.
func hpackAddedNamed(name, value string) []byte {
	b := append([]byte{0x40, byte(len(name))}, name...)
	return append(append(b, byte(len(value))), value...)
}

// Answers whose head repeats the last byte for byte, as a server's do, read as they would
// if each were decoded and checked anew: a repeat that reads a table that changed since, a
// different head after repeats, a malformed head or :status repeated, and trailers that
// repeat the head, on one connection.
func TestHTTP2RepeatedHeads(t *testing.T) {
	t.Parallel()
	status200, status404 := []byte{0x88}, []byte{0x8d}
	plain := hpackJoin(status200, hpackAddedNamed("x-v", "1"), hpackAdded(28, "2"))
	other := hpackJoin(status404, hpackAddedNamed("x-v", "2"), hpackAdded(28, "2"))
	readsTable := hpackJoin(status200, []byte{0x80 | 63, 0x80 | 62}) // x-v and content-length as last added
	upper := hpackJoin(status200, hpackAddedNamed("X-V", "1"))
	statusText := hpackJoin([]byte{0x08, 3}, []byte("2x0"))
	const badHead, badStatus = "cannot parse the answer's head", "cannot parse the answer's :status"
	steps := []struct {
		answer h2Scripted
		status int
		xv     string
		fails  string // in the error of the request or of its body
	}{
		{h2Scripted{head: plain}, 200, "1", ""},
		{h2Scripted{head: plain}, 200, "1", ""},
		{h2Scripted{head: readsTable}, 200, "1", ""},
		{h2Scripted{head: readsTable}, 200, "1", ""},
		{h2Scripted{head: other}, 404, "2", ""},
		{h2Scripted{head: readsTable}, 200, "2", ""},
		{h2Scripted{head: plain}, 200, "1", ""},
		{h2Scripted{head: upper}, 0, "", badHead},
		{h2Scripted{head: upper}, 0, "", badHead},
		{h2Scripted{head: plain}, 200, "1", ""},
		{h2Scripted{head: plain, trailers: plain}, 200, "1", "a pseudo-field in its trailers"},
		{h2Scripted{head: plain, trailers: plain}, 200, "1", "a pseudo-field in its trailers"},
		{h2Scripted{head: statusText}, 0, "", badStatus},
		{h2Scripted{head: statusText}, 0, "", badStatus},
		{h2Scripted{head: plain}, 200, "1", ""},
	}
	script := make([]h2Scripted, len(steps))
	for i, s := range steps {
		script[i] = s.answer
	}
	addr := serveScript(t, script)
	var stats connStats
	c := testH2Client(t, Config{Timeout: 10 * time.Second}, &stats)
	for i, s := range steps {
		resp, err := h2Get(t, c, "http://"+addr+"/")
		status, xv := 0, ""
		if err == nil {
			status, xv = resp.StatusCode(), string(resp.Header.Peek("X-V"))
			var body []byte
			body, err = io.ReadAll(resp.BodyStream())
			_ = resp.CloseBodyStream()
			if err == nil && string(body) != "ok" {
				t.Errorf("answer %d: body %q, want \"ok\"", i, body)
			}
		}
		if status != s.status || xv != s.xv || (s.fails == "") != (err == nil) || !strings.Contains(fmt.Sprint(err), s.fails) {
			t.Errorf("answer %d: status %d, X-V %q, error %v; want %d, %q, an error saying %q", i, status, xv, err, s.status, s.xv, s.fails)
		}
	}
	if got := stats.opened.Load(); got != 1 {
		t.Errorf("%d connections, want 1", got)
	}
}
