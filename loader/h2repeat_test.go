package loader

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
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

// A head laid out once and copied (h2Head) gives the response fillResponse gives from the
// fields: the same status, protocol, headers, cookies and length, with each kind of field
// fasthttp keeps apart.
func TestHTTP2RepeatedHeadLaidOutAlike(t *testing.T) {
	t.Parallel()
	f := func(kv ...string) []hpack.HeaderField {
		var fields []hpack.HeaderField
		for i := 0; i+1 < len(kv); i += 2 {
			fields = append(fields, hpack.HeaderField{Name: kv[i], Value: kv[i+1]})
		}
		return fields
	}
	tests := []struct {
		name   string
		status int
		fields []hpack.HeaderField
	}{
		{"nginx's", 200, f(":status", "200", "server", "nginx", "date", "Sun, 06 Dec 2026 14:00:00 GMT",
			"content-type", "text/plain", "content-length", "100", "last-modified", "Sun, 06 Dec 2026 12:43:03 GMT",
			"etag", `"6b155857-64"`, "accept-ranges", "bytes")},
		{"cookies", 200, f(":status", "200", "set-cookie", "a=1; Path=/", "set-cookie", "b=2; HttpOnly", "content-length", "2")},
		{"encoded", 200, f(":status", "200", "content-encoding", "gzip", "vary", "accept-encoding", "cache-control", "no-cache")},
		{"a name twice", 404, f(":status", "404", "x-a", "1", "x-a", "2", "content-length", "0")},
		{"no length", 200, f(":status", "200", "content-type", "text/html; charset=utf-8")},
		{"trailers announced", 200, f(":status", "200", "trailer", "x-checksum", "content-length", "2")},
		{"no content", 204, f(":status", "204", "server", "h2o")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, head := range []bool{false, true} {
				var laid, copied fasthttp.Response
				fromFields := &h2Stream{status: tt.status, fields: tt.fields}
				fromHead := &h2Stream{status: tt.status, fields: tt.fields, head: newH2Head(tt.status, tt.fields)}
				fillResponse(&laid, fromFields, &h2Body{}, head)
				fillResponse(&copied, fromHead, &h2Body{}, head)
				if a, b := responseHead(&laid), responseHead(&copied); a != b {
					t.Errorf("head %v: laid out from the fields:\n%s\ncopied:\n%s", head, a, b)
				}
				if fromFields.length != fromHead.length {
					t.Errorf("head %v: body length %d from the fields, %d copied", head, fromFields.length, fromHead.length)
				}
			}
		})
	}
}

// responseHead renders what a response's head holds: every field fasthttp gives, and the
// head as it would write it, but for the Date of the clock it adds.
func responseHead(resp *fasthttp.Response) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(resp.Header.String(), "\r\n") {
		if !strings.HasPrefix(line, "Date: ") {
			b.WriteString(line)
		}
	}
	for k, v := range resp.Header.All() {
		fmt.Fprintf(&b, "field %s: %s\n", k, v)
	}
	var cookies []string
	resp.Header.VisitAllCookie(func(k, v []byte) { cookies = append(cookies, string(k)+"="+string(v)) })
	fmt.Fprintf(&b, "status %d, protocol %s, length %d, content type %q, encoding %q, server %q, cookies %q",
		resp.StatusCode(), resp.Header.Protocol(), resp.Header.ContentLength(),
		resp.Header.ContentType(), resp.Header.ContentEncoding(), resp.Header.Server(), cookies)
	return b.String()
}
