package loader

import (
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// nextProtoH2 is HTTP/2's name in the TLS handshake (ALPN).
const nextProtoH2 = "h2"

// errNoHTTP2 marks a TLS server that did not pick "h2" in the handshake (Config.HTTP2). It is
// a failure of kind ErrTLS.
var errNoHTTP2 = errors.New("did not agree to HTTP/2 (ALPN)")

// errH2Timeout is an HTTP/2 request that did not end, body included, within Config.Timeout.
var errH2Timeout error = h2Timeout{}

// h2Timeout is a fasthttp.ErrTimeout, so that it counts as the HTTP/1.1 path's timeouts do.
type h2Timeout struct{}

func (h2Timeout) Error() string        { return "http/2: timeout" }
func (h2Timeout) Is(target error) bool { return target == fasthttp.ErrTimeout }

// errH2NoStreams is a server whose new connection takes no stream at all.
var errH2NoStreams = errors.New("http2: the server's new connection takes no streams (SETTINGS_MAX_CONCURRENT_STREAMS 0)")

// h2MaxAttempts bounds how often one request goes out: the first time, then again after
// refusals (REFUSED_STREAM, a GOAWAY before its stream) or a connection that ended before it
// was written, as net/http's transport does.
const h2MaxAttempts = 7

// h2Client sends requests over HTTP/2 (Config.HTTP2) on connections of its own, speaking the
// protocol with golang.org/x/net/http2's framer and HPACK coder: it sends fasthttp's request
// and fills fasthttp's response directly, so that nothing above the exchange changes and a
// request costs a few allocations, not the tens that net/http's transport and the conversions
// to and from its types cost. The users of a host share one connection, multiplexed, and
// another is opened when the server's stream limit fills it. Connections come from the run's
// dialer, so they are counted, tunnelled through the proxy and verified as on the HTTP/1.1
// path; net/http is not needed for any of it. Safe for concurrent use.
type h2Client struct {
	d         *dialer
	tls       *tls.Config
	stats     *connStats
	timeout   time.Duration // Config.Timeout, for the whole request, body included
	idle      time.Duration // how long an unused connection stays open
	userAgent string        // sent when the request has none, as fasthttp.Client.Name is
	// maxHeaderList bounds an answer's header list: h2MaxHeaderList, smaller in tests.
	maxHeaderList uint32
	streams       sync.Pool // *h2Stream
	// base is when the client was made: a request's deadline is an offset from it, which
	// reads the monotonic clock only, where time.Now reads the wall clock too.
	base time.Time

	mu    sync.Mutex
	hosts [2]map[string]*h2Host // http's and https's, by the target's host[:port]
}

// h2Host holds the connections to one host and scheme.
type h2Host struct {
	client  *h2Client
	addr    string // host:port
	https   bool
	conns   []*h2Conn     // under client.mu
	dialing chan struct{} // closed when the dial in flight ends; nil when none is
}

func newH2Client(cfg *Config, cs *connStats) (*h2Client, error) {
	tc, d, err := connSetup(cfg, cs)
	if err != nil {
		return nil, err
	}
	c := &h2Client{d: d, tls: tc, stats: cs, timeout: cfg.Timeout, idle: cfg.idleConn(),
		userAgent: cfg.UserAgent, maxHeaderList: h2MaxHeaderList, hosts: [2]map[string]*h2Host{{}, {}},
		base: time.Now()}
	c.streams.New = func() any {
		s := &h2Stream{wake: make(chan struct{}, 1), timer: time.NewTimer(time.Hour)}
		s.timer.Stop()
		return s
	}
	return c, nil
}

// Do sends req over HTTP/2 and fills resp with the answer's head and, as its body stream, the
// answer's body. The request's clock keeps running until that stream is closed (body.read
// closes it), so Config.Timeout bounds the body as on the HTTP/1.1 path.
func (c *h2Client) Do(req *fasthttp.Request, resp *fasthttp.Response) error {
	deadline := c.base.Add(time.Since(c.base) + c.timeout)
	c.prepare(req)
	uri := req.URI()
	https := string(uri.Scheme()) == "https"
	refused := false
	for attempt := 0; attempt < h2MaxAttempts; attempt++ {
		if attempt > 0 {
			c.stats.h2Retries.Add(1)
		}
		if refused && attempt > 1 {
			// At once the first time, then after 1 s, 2 s, 4 s...: a server that refuses
			// streams is busy. The request fails as refused when its time cannot cover it.
			wait := time.Second << (attempt - 2)
			if time.Until(deadline) < wait {
				return errStreamRefused
			}
			time.Sleep(wait)
		}
		s, err := c.attempt(req, uri.Host(), https, deadline)
		if err == nil {
			fillResponse(resp, s, &h2Body{client: c, s: s, status: s.status}, string(req.Header.Method()) == "HEAD")
			return nil
		}
		switch {
		case errors.Is(err, errH2RefusedRetry):
			refused = true
		case errors.Is(err, errH2GoAwayRetry), errors.Is(err, errH2Unusable):
		case refused && errors.Is(err, errH2Timeout):
			return errStreamRefused // the server's last word on it was a refusal
		default:
			return err
		}
	}
	return errStreamRefused
}

// attempt sends req once and waits for its answer's head.
func (c *h2Client) attempt(req *fasthttp.Request, host []byte, https bool, deadline time.Time) (*h2Stream, error) {
	h, err := c.host(host, https)
	if err != nil {
		return nil, err
	}
	conn, err := h.conn(deadline)
	if err != nil {
		return nil, err
	}
	s := c.streams.Get().(*h2Stream)
	s.c = conn
	select {
	case <-s.wake: // a signal left from the stream's last use
	default:
	}
	s.timer.Reset(time.Until(deadline))
	if err := conn.send(s, req); err != nil {
		c.release(s)
		return nil, err
	}
	if err := s.awaitHead(); err != nil {
		c.release(s)
		return nil, err
	}
	return s, nil
}

// release ends s: it resets the stream if its answer has not ended, gives its slot back to
// the connection and s to the pool.
func (c *h2Client) release(s *h2Stream) {
	s.timer.Stop()
	conn := s.c
	conn.mu.Lock()
	code, reset := rstCode(s)
	registered := s.id != 0 && conn.streams[s.id] == s
	conn.removeLocked(s)
	conn.mu.Unlock()
	if reset && registered {
		id := s.id
		_ = conn.write(func() error { return conn.fr.WriteRSTStream(id, code) })
	}
	conn.unreserve()
	*s = h2Stream{wake: s.wake, timer: s.timer, fields: s.fields[:0], buf: s.buf[:0]}
	if cap(s.buf) > 64<<10 {
		s.buf = nil // a large body's buffer is not kept for small ones
	}
	c.streams.Put(s)
}

// CloseIdleConnections closes the connections no request is using.
func (c *h2Client) CloseIdleConnections() {
	c.mu.Lock()
	var idle []*h2Conn
	for _, hosts := range c.hosts {
		for _, h := range hosts {
			idle = append(idle, h.conns...)
		}
	}
	c.mu.Unlock()
	for _, conn := range idle {
		conn.closeIdle()
	}
}

// host returns the pool of connections to host (as the URL names it) over https or http.
func (c *h2Client) host(host []byte, https bool) (*h2Host, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	hosts := c.hosts[0]
	if https {
		hosts = c.hosts[1]
	}
	if h := hosts[string(host)]; h != nil { // looked up without allocating
		return h, nil
	}
	if len(host) == 0 {
		return nil, errors.New("http2: the request has no host")
	}
	h := &h2Host{client: c, addr: fasthttp.AddMissingPort(string(host), https), https: https}
	hosts[string(host)] = h
	return h, nil
}

// conn returns a connection with a stream slot reserved for a request, dialing one when none
// has a free slot: one dial at a time per host, so that users starting together share the
// first connection instead of opening one each.
func (h *h2Host) conn(deadline time.Time) (*h2Conn, error) {
	c := h.client
	for {
		c.mu.Lock()
		for _, conn := range h.conns {
			if conn.reserve() {
				c.mu.Unlock()
				return conn, nil
			}
		}
		if dialing := h.dialing; dialing != nil {
			c.mu.Unlock()
			if err := waitUntil(dialing, deadline); err != nil {
				return nil, err
			}
			continue
		}
		dialing := make(chan struct{})
		h.dialing = dialing
		c.mu.Unlock()
		conn, err := h.dial(deadline)
		c.mu.Lock()
		h.dialing = nil
		close(dialing)
		if err != nil {
			c.mu.Unlock()
			return nil, err
		}
		h.conns = append(h.conns, conn)
		c.mu.Unlock()
		if conn.reserve() {
			return conn, nil
		}
		if conn.takesNoStreams() {
			// Looking again would only lead to another dial.
			conn.closeIdle()
			return nil, errH2NoStreams
		}
		// Others waiting for the dial took its slots: look again.
	}
}

// waitUntil waits for ch to close, or fails at deadline.
func waitUntil(ch <-chan struct{}, deadline time.Time) error {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-t.C:
		return errH2Timeout
	}
}

// dial opens a connection to the host and starts HTTP/2 on it, within what is left of the
// request's time: TLS agreeing on h2 for https targets, h2c with prior knowledge for http.
func (h *h2Host) dial(deadline time.Time) (*h2Conn, error) {
	c := h.client
	left := time.Until(deadline)
	if left <= 0 {
		return nil, errH2Timeout
	}
	var conn net.Conn
	var err error
	if h.https {
		conn, err = c.d.dialH2(h.addr, left, c.tls)
	} else {
		conn, err = c.d.dial(h.addr, left, nil)
	}
	if err != nil {
		return nil, err
	}
	return newH2Conn(conn, h, deadline)
}

// remove takes conn, which ended, out of the pool.
func (h *h2Host) remove(conn *h2Conn) {
	c := h.client
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, cc := range h.conns {
		if cc == conn {
			h.conns = append(h.conns[:i], h.conns[i+1:]...)
			return
		}
	}
}

// prepare does to req what fasthttp's Client and Request.Write do before sending, so that
// the path is sent as written (newClient's DisablePathNormalizing) and req reads afterwards
// as it was sent (siege's -g prints it): the Host and request target from the URI, the
// credentials of the URL unless the request has its own, and the client's User-Agent.
func (c *h2Client) prepare(req *fasthttp.Request) {
	uri := req.URI()
	uri.DisablePathNormalizing = true
	h := &req.Header
	if len(h.Host()) == 0 || !req.UseHostHeader {
		h.SetHostBytes(uri.Host())
	}
	h.SetRequestURIBytes(uri.RequestURI())
	if len(uri.Username()) > 0 && len(h.Peek(fasthttp.HeaderAuthorization)) == 0 {
		cred := string(uri.Username()) + ":" + string(uri.Password())
		h.Set(fasthttp.HeaderAuthorization, "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	}
	if len(h.UserAgent()) == 0 && c.userAgent != "" {
		h.SetUserAgent(c.userAgent)
	}
	h.SetProtocol("HTTP/2.0")
}

// connectionHeader tells whether a request header is HTTP/1.1's business only: HTTP/2 forbids
// the connection-specific ones, carries Host as :authority and sets Content-Length itself.
func connectionHeader(key []byte) bool {
	for _, name := range [...]string{"Host", "Content-Length", "Connection", "Keep-Alive",
		"Proxy-Connection", "Transfer-Encoding", "Upgrade", "Te"} {
		if strings.EqualFold(string(key), name) {
			return true
		}
	}
	return false
}

// goAwayError is a GOAWAY without its debug data: free bytes from the server, which reports
// must not quote.
type goAwayError struct {
	code string // as HTTP/2 names it, e.g. INTERNAL_ERROR
	err  error  // what ended the connection, for errors.Is and errors.As
}

func (e goAwayError) Error() string {
	return fmt.Sprintf("http2: server sent GOAWAY (%s) and closed the connection", e.code)
}
func (e goAwayError) Unwrap() error { return e.err }

// dialH2 opens a TLS connection to addr (host:port) that agreed on HTTP/2, within timeout.
func (d *dialer) dialH2(addr string, timeout time.Duration, base *tls.Config) (net.Conn, error) {
	// A configuration per connection, not per host as for fasthttp: HTTP/2 opens few of them.
	tc, err := hostTLSConfig(base, addr)
	if err != nil {
		return nil, err
	}
	tc.NextProtos = []string{nextProtoH2}
	conn, err := d.dial(addr, timeout, tc)
	if err != nil {
		// Go's servers, among others, end the handshake with an alert when they know none of
		// the protocols offered; others finish it without choosing one (below).
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "remote error" && strings.Contains(op.Err.Error(), "no application protocol") {
			return nil, fmt.Errorf("server at %s %w: %w", addr, errNoHTTP2, op)
		}
		return nil, err
	}
	if tlsConn, ok := conn.(*tls.Conn); !ok || tlsConn.ConnectionState().NegotiatedProtocol != nextProtoH2 {
		conn.Close()
		return nil, fmt.Errorf("server at %s %w", addr, errNoHTTP2)
	}
	return conn, nil
}
