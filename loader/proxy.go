package loader

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/urls"
)

// errProxyRefused marks a proxy that answered CONNECT with anything but 2xx (407 for wrong
// or missing credentials, 403 for a port it does not tunnel to, 502 for a target it cannot reach).
var errProxyRefused = errors.New("refused the tunnel")

// proxy is an HTTP proxy that every connection of a run goes through as a CONNECT tunnel.
//
// Plain http:// targets are tunnelled too, rather than sent to the proxy as absolute-form
// requests ("GET http://host/path"): fasthttp always writes the origin form, and one way for
// both schemes keeps connections, byte counts and failures alike. It needs a proxy that allows
// CONNECT to the targets' ports, not only 443 (Squid's default "CONNECT !SSL_ports" rule
// refuses port 80 with 403).
//
// fasthttpproxy.FasthttpHTTPDialerTimeout does nearly the same, but dials with a TCPDialer
// of its own, accepts only 200, would pull golang.org/x/net into the build, and drops any
// bytes read past the proxy's answer.
type proxy struct {
	addr string // host:port
	auth string // the Proxy-Authorization value, empty without credentials
}

// parseProxy checks a Config.Proxy URL: http://[user:pass@]host:port and nothing more.
// setting is what errors call the Proxy field (see Config.SettingName).
func parseProxy(raw, setting string) (*proxy, error) {
	shown := urls.Redacted(raw)
	bad := func(why string) error {
		msg := fmt.Sprintf("bad %s %q: %s (want http://[user:pass@]host:port)", setting, shown, why)
		return describedError{msg: msg, err: ErrBadProxy}
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error quotes the whole URL, password included, so only its cause is kept.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, bad(err.Error())
	}
	switch {
	case u.Scheme != "http":
		return nil, bad("the scheme must be http")
	case u.Opaque != "" || u.Hostname() == "" || u.Port() == "":
		return nil, bad("it needs a host and a port")
	case (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return nil, bad("it must not have a path, query or fragment")
	}
	p := &proxy{addr: u.Host}
	if u.User != nil {
		// Decoded: User.String() would send percent-escapes as part of the credentials.
		cred := u.User.Username()
		if pass, ok := u.User.Password(); ok {
			cred += ":" + pass
		}
		p.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(cred))
	}
	return p, nil
}

// connect asks the proxy, on conn (a connection to it), for a tunnel to addr (host:port) and
// returns the conn to use through it. The conn's deadline bounds the exchange.
func (p *proxy) connect(conn net.Conn, addr string) (net.Conn, error) {
	if strings.ContainsAny(addr, "\r\n") {
		return nil, fmt.Errorf("proxy %s: bad target address %q", p.addr, addr)
	}
	req := "CONNECT " + addr + " HTTP/1.1\r\nHost: " + addr + "\r\n"
	if p.auth != "" {
		req += "Proxy-Authorization: " + p.auth + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		return nil, fmt.Errorf("proxy %s: sending CONNECT %s: %w", p.addr, addr, err)
	}
	br := bufio.NewReaderSize(conn, 1024)
	var h fasthttp.ResponseHeader
	if err := h.Read(br); err != nil {
		var netErr net.Error
		if errors.Is(err, io.EOF) || errors.Is(err, fasthttp.ErrTimeout) || errors.As(err, &netErr) {
			return nil, fmt.Errorf("proxy %s: reading the answer to CONNECT %s: %w", p.addr, addr, err)
		}
		// fasthttp's parse errors quote the bytes read; the kind of failure is enough here.
		return nil, fmt.Errorf("proxy %s answered CONNECT %s with something other than HTTP", p.addr, addr)
	}
	if code := h.StatusCode(); code < 200 || code > 299 {
		// Nor are the proxy's own reason phrase and body quoted.
		return nil, fmt.Errorf("proxy %s %w to %s: %d %s",
			p.addr, errProxyRefused, addr, code, fasthttp.StatusMessage(code))
	}
	if br.Buffered() > 0 {
		// The target spoke first and its bytes are already in br: read them from there.
		return &bufferedConn{Conn: conn, r: br}, nil
	}
	return conn, nil
}

// bufferedConn is a conn whose first bytes were read ahead into r.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
