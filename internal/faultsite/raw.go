package faultsite

import (
	"net"
	"net/http"
	"time"
)

// The responses below break HTTP on purpose, so they are written as raw bytes on a
// hijacked connection: net/http would never produce them.
const (
	resetAfterHeadersReply = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n0123456789"
	badStatusReply         = "HTTP/1.1 2x0 Broken\r\nContent-Length: 2\r\n\r\nok"
	garbageReply           = "this is not HTTP\r\n\r\n"
	badChunkedReply        = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"
	shortBodyReply         = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789"

	// resetPause lets the partial response reach the client before the RST, so that the
	// client sees a body cut short rather than a connection that never answered.
	resetPause = 20 * time.Millisecond
)

func serveResetBefore(w http.ResponseWriter, _ *http.Request, _ int64) {
	if c := hijack(w); c != nil {
		abort(c)
	}
}

func serveResetAfterHeaders(w http.ResponseWriter, r *http.Request, _ int64) {
	c := hijack(w)
	if c == nil {
		return
	}
	// A TCP write is unbuffered in user space: once Write returns, the bytes are flushed.
	if _, err := c.Write([]byte(resetAfterHeadersReply)); err == nil {
		sleep(r, resetPause)
	}
	abort(c)
}

func serveBadStatus(w http.ResponseWriter, _ *http.Request, _ int64) {
	writeAndClose(w, badStatusReply)
}

func serveGarbage(w http.ResponseWriter, _ *http.Request, _ int64) {
	writeAndClose(w, garbageReply)
}

func serveBadChunked(w http.ResponseWriter, _ *http.Request, _ int64) {
	writeAndClose(w, badChunkedReply)
}

// serveShortBody closes with a FIN, so the client's only clue is the missing bytes.
func serveShortBody(w http.ResponseWriter, _ *http.Request, _ int64) {
	writeAndClose(w, shortBodyReply)
}

// writeAndClose sends a broken reply and ends the connection politely (FIN), so that what
// the client sees is the reply itself and not a network error.
func writeAndClose(w http.ResponseWriter, reply string) {
	c := hijack(w)
	if c == nil {
		return
	}
	_, _ = c.Write([]byte(reply))
	_ = c.Close()
}

// hijack takes the connection from net/http; it answers 500 and returns nil if it cannot,
// which only happens if the server stops speaking HTTP/1.x.
func hijack(w http.ResponseWriter) net.Conn {
	c, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "faultsite: hijack: "+err.Error(), http.StatusInternalServerError)
		return nil
	}
	return c
}

// abort closes with SO_LINGER 0, which makes the kernel send an RST instead of a FIN: the
// client gets ECONNRESET, as from a crashed server or a middlebox dropping state.
func abort(c net.Conn) {
	if l, ok := c.(interface{ SetLinger(int) error }); ok {
		_ = l.SetLinger(0)
	}
	_ = c.Close()
}
