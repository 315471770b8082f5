package loader

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"slices"
	"strings"
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

// h2Client sends requests over HTTP/2 (Config.HTTP2) with net/http's transport: it turns
// fasthttp's request into net/http's and the answer back into fasthttp's response, so that
// nothing above the exchange changes. Connections come from the run's dialer, so they are
// counted, tunnelled through the proxy and verified as on the HTTP/1.1 path.
//
// It calls the transport's RoundTrip, not an http.Client: a client would parse the Location of
// every redirect answer (failing the request when it does not parse, where fasthttp hands the
// answer back) and build the next request before being told not to follow it, and nothing
// else it offers is wanted here: no jar, no redirects, and Do sets the deadline.
// Safe for concurrent use.
type h2Client struct {
	t         *http.Transport // HTTP/2 only, for http (h2c) and https targets alike
	timeout   time.Duration   // Config.Timeout, for the whole request
	userAgent string          // sent when the request has none, as fasthttp.Client.Name is
}

func newH2Client(cfg *Config, cs *connStats) (*h2Client, error) {
	tc, d, err := connSetup(cfg, cs)
	if err != nil {
		return nil, err
	}
	c := &h2Client{timeout: cfg.Timeout, userAgent: cfg.UserAgent}
	// HTTP/2 only: over TLS when ALPN agreed on it, and h2c with prior knowledge for http
	// targets, since HTTP/1 is left out. One transport serves both, as it pools connections
	// by scheme as well as address.
	var protocols http.Protocols
	protocols.SetHTTP2(true)
	protocols.SetUnencryptedHTTP2(true)
	c.t = &http.Transport{
		Protocols: &protocols,
		// http targets: a plain TCP connection (or tunnel) that speaks HTTP/2 at once. The
		// transport's Proxy stays unset, as the run's dialer does the tunnelling.
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return d.dial(addr, c.dialTimeout(ctx), nil)
		},
		// https targets: the transport speaks HTTP/2 on a *tls.Conn whose handshake agreed
		// on h2, which dialH2 makes sure of.
		DialTLSContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return d.dialH2(addr, c.dialTimeout(ctx), tc)
		},
		// webload sends its own Accept-Encoding and decodes the body itself (body.read): the
		// transport must neither ask for gzip nor decode it on the way.
		DisableCompression: true,
		IdleConnTimeout:    cfg.idleConn(),
		// One dial at a time per host: left unlimited, the transport dials once for each
		// request that finds no connection yet, and a run's users, starting together, would
		// open one connection each instead of sharing the first. It still dials another when
		// the server's stream limit fills the connection: the full one then leaves the count,
		// as a closed one does.
		MaxConnsPerHost: 1,
	}
	return c, nil
}

// Do sends req over HTTP/2 and fills resp with the answer's head and, as its body stream, the
// answer's body. The request's deadline keeps running until that stream is closed (body.read
// closes it), so Config.Timeout bounds the body as on the HTTP/1.1 path.
func (c *h2Client) Do(req *fasthttp.Request, resp *fasthttp.Response) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	tries := newH2Tries()
	ctx = httptrace.WithClientTrace(ctx, &tries.trace)
	hreq, err := c.request(ctx, req)
	if err != nil {
		cancel()
		tries.release()
		return err
	}
	hresp, err := c.t.RoundTrip(hreq)
	if err != nil {
		cancel()
		return tries.failed(err)
	}
	tries.release()
	fillResponse(resp, hresp, &h2Body{body: hresp.Body, cancel: cancel, head: hresp})
	return nil
}

// CloseIdleConnections closes the connections no request is using.
func (c *h2Client) CloseIdleConnections() {
	c.t.CloseIdleConnections()
}

// dialTimeout is what is left of the request's time for dialing: the transport dials for
// the request that first needs a connection, under that request's context.
func (c *h2Client) dialTimeout(ctx context.Context) time.Duration {
	if deadline, ok := ctx.Deadline(); ok {
		return time.Until(deadline) // fasthttp's dialer fails at once when nothing is left
	}
	return c.timeout
}

// request converts req into the net/http request that the transport sends.
func (c *h2Client) request(ctx context.Context, req *fasthttp.Request) (*http.Request, error) {
	// First what fasthttp's Client and Request.Write do before sending, so that the path is
	// sent as written (newClient's DisablePathNormalizing) and req reads afterwards as it was
	// sent (siege's -g prints it): the Host and request target from the URI, the credentials
	// of the URL unless the request has its own, and the client's User-Agent.
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

	var body io.Reader
	if b := req.Body(); len(b) > 0 {
		// No copy: the transport may still be writing the body after the answer came back,
		// while the user already prepares its next request in req, but the body is a
		// target's shared one (prepare), which nothing ever writes to.
		body = bytes.NewReader(b)
	}
	// All the text net/http wants as strings, in one string sliced into its fields: the
	// method, "//authority/path?query" and each header's name and value. One allocation, where
	// a string per field cost one each, as did a slice per header's values.
	host, target := h.Host(), h.RequestURI()
	size, headers := len(h.Method())+2+len(host)+len(target), 0
	for k, v := range h.All() {
		if !connectionHeader(k) {
			size, headers = size+len(k)+len(v), headers+1
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	sb.Write(h.Method())
	sb.WriteString("//")
	sb.Write(host)
	sb.Write(target)
	for k, v := range h.All() {
		if !connectionHeader(k) {
			sb.Write(k)
			sb.Write(v)
		}
	}
	text := sb.String()
	method, text := text[:len(h.Method())], text[len(h.Method()):]
	opaque, text := text[:2+len(host)+len(target)], text[2+len(host)+len(target):]
	hreq, err := http.NewRequestWithContext(ctx, method, "", body)
	if err != nil {
		return nil, err
	}
	// The target is sent as written: an opaque "//authority/path" is the net/http way to
	// keep a path from being re-escaped; the transport sends the path part as :path. The URL
	// parsed from "" is filled in, not replaced.
	authority := opaque[2 : 2+len(host)]
	urlHost := authority
	if !bytes.Equal(uri.Host(), host) {
		urlHost = string(uri.Host()) // a Host header of the run's own
	}
	path, query, _ := strings.Cut(opaque, "?")
	*hreq.URL = url.URL{Scheme: schemeName(uri.Scheme()), Host: urlHost, Opaque: path, RawQuery: query}
	hreq.Host = authority
	values := make([]string, headers)
	i := 0
	for k, v := range h.All() {
		if connectionHeader(k) {
			continue
		}
		key, value := text[:len(k)], text[len(k):len(k)+len(v)]
		text = text[len(k)+len(v):]
		if vv, ok := hreq.Header[key]; ok {
			hreq.Header[key] = append(vv, value) // a repeated header: rare, so it may allocate
			continue
		}
		values[i] = value
		hreq.Header[key] = values[i : i+1 : i+1]
		i++
	}
	if _, ok := hreq.Header["User-Agent"]; !ok {
		hreq.Header["User-Agent"] = []string{""} // none, as fasthttp sends; not Go's own
	}
	return hreq, nil
}

// schemeName is a target's scheme as a string without allocating one: Config.Validate lets
// only http and https through.
func schemeName(scheme []byte) string {
	if string(scheme) == "https" {
		return "https"
	}
	return "http"
}

// connectionHeader tells whether a request header is HTTP/1.1's business only: HTTP/2 forbids
// the connection-specific ones, carries Host as :authority and sets Content-Length itself.
func connectionHeader(key []byte) bool {
	for _, name := range [...]string{"Host", "Content-Length", "Connection", "Keep-Alive",
		"Proxy-Connection", "Transfer-Encoding", "Upgrade"} {
		if strings.EqualFold(string(key), name) {
			return true
		}
	}
	return false
}

// fillResponse puts the head of an HTTP/2 answer into resp, and body as its stream.
func fillResponse(resp *fasthttp.Response, hr *http.Response, body io.Reader) {
	resp.Reset()
	resp.SetStatusCode(hr.StatusCode)
	// Unlike the request's, the response's SetProtocol leaves IsHTTP11 true, so the result is
	// not marked HTTP10. fasthttp renders this head with a reason phrase and its defaults
	// (Date, Content-Type), which ProbeOnce does not show: see h2Body.wireHead.
	resp.Header.SetProtocol([]byte("HTTP/2.0"))
	for k, vv := range hr.Header {
		for _, v := range vv {
			resp.Header.Add(k, v) // Set-Cookie values land in resp.Header.Cookies()
		}
	}
	resp.SetBodyStream(body, int(hr.ContentLength))
	if hr.ContentLength < 0 {
		// SetBodyStream calls an unknown length chunked; HTTP/2 has no such thing.
		resp.Header.Del(fasthttp.HeaderTransferEncoding)
	}
}

// h2Body is an HTTP/2 answer's body as a fasthttp body stream. Closing it ends the stream
// (with RST_STREAM when it was not read to its end, leaving the connection to the others) and
// only then releases the request's deadline. One goroutine reads and closes it.
type h2Body struct {
	body   io.ReadCloser
	cancel context.CancelFunc
	closed bool // fasthttp may close it again when the response is reset
	// head is the answer's :status and headers as they came, which the fasthttp response
	// does not keep: it reads a status of 0 as 200 and renders headers it defaults (Date,
	// Content-Type). checkStatus and ProbeOnce read it.
	head *http.Response
}

func (b *h2Body) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if err != nil {
		err = h2Error(err) // io.EOF stays as it is
	}
	return n, err
}

func (b *h2Body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	err := b.body.Close()
	b.cancel()
	return err
}

// wireHead returns the answer's head as it came: "HTTP/2.0", the :status as sent (HTTP/2 has
// no reason phrase) and the headers, sorted by name, as the transport keeps them in a map.
func (b *h2Body) wireHead() string {
	status, _, _ := strings.Cut(b.head.Status, " ")
	var sb strings.Builder
	sb.WriteString("HTTP/2.0 " + status + "\r\n")
	for _, k := range slices.Sorted(maps.Keys(b.head.Header)) {
		for _, v := range b.head.Header[k] {
			sb.WriteString(k + ": " + v + "\r\n")
		}
	}
	sb.WriteString("\r\n")
	return sb.String()
}

// h2Error maps what the transport returns to what classify knows.
func h2Error(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return errH2Timeout
	}
	if code, ok := goAwayCode(err); ok {
		return goAwayError{code: code, err: err}
	}
	return err
}

// goAwayCode names the error code of the GOAWAY in err's chain, if there is one.
func goAwayCode(err error) (string, bool) {
	return h2ErrCode(err, "GoAwayError", "ErrCode")
}

// h2ErrCode names the HTTP/2 error code in field of the first error in err's chain whose
// type's name ends in typ. net/http keeps its HTTP/2 error types unexported, so they are known
// by their types' names and fields, which they share with golang.org/x/net/http2's exported
// GoAwayError and StreamError.
func h2ErrCode(err error, typ, field string) (string, bool) {
	for ; err != nil; err = errors.Unwrap(err) {
		v := reflect.ValueOf(err)
		if v.Kind() != reflect.Struct || !strings.HasSuffix(v.Type().Name(), typ) {
			continue
		}
		if f := v.FieldByName(field); f.IsValid() && f.CanInterface() {
			return fmt.Sprint(f.Interface()), true
		}
	}
	return "", false
}

// goAwayError is a GOAWAY without its debug data: free bytes from the server, which the
// transport's message quotes and reports must not.
type goAwayError struct {
	code string // as HTTP/2 names it, e.g. INTERNAL_ERROR
	err  error  // the transport's, for errors.Is and errors.As
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
	// net/http's transport speaks HTTP/2 only on a *tls.Conn that agreed on it; on any other
	// connection it would fall back to HTTP/1.1.
	if tlsConn, ok := conn.(*tls.Conn); !ok || tlsConn.ConnectionState().NegotiatedProtocol != nextProtoH2 {
		conn.Close()
		return nil, fmt.Errorf("server at %s %w", addr, errNoHTTP2)
	}
	return conn, nil
}
