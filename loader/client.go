package loader

import (
	"crypto/tls"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// connStats counts what happens on the wire, across all connections of a run.
type connStats struct {
	opened   atomic.Int64
	bytesIn  atomic.Int64
	bytesOut atomic.Int64
	// HTTP/2 only (Config.HTTP2): GOAWAY and RST_STREAM frames received, and requests sent
	// again after a refusal (REFUSED_STREAM, a GOAWAY before their stream) or on a connection
	// that ended before they were written.
	h2GoAways, h2Resets, h2Retries atomic.Int64
}

// connSetup builds what both clients connect with: the TLS settings (nil when none are
// given) and the counting dialer.
func connSetup(cfg *Config, cs *connStats) (*tls.Config, *dialer, error) {
	tc, err := tlsConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	tc = withSessionCache(tc)
	d, err := newDialer(cfg, cs)
	if err != nil {
		return nil, nil, err
	}
	return tc, d, nil
}

// newClient builds the run's one fasthttp client. fasthttp's defaults suit proxies, not load
// generators, so nearly every knob is set here on purpose. It fails on unreadable certificate
// files and a bad proxy URL.
func newClient(cfg *Config, cs *connStats) (*fasthttp.Client, error) {
	tc, d, err := connSetup(cfg, cs)
	if err != nil {
		return nil, err
	}
	awaits := cfg.awaitsAnswers()
	d.wrap = func(conn net.Conn) net.Conn { return wire(conn, cfg.Timeout, cfg.probe, awaits) }
	c := &fasthttp.Client{
		Name: cfg.UserAgent,
		// Every user holds at most one connection per host at a time, or one per parallel
		// resource fetch when pages are parsed.
		MaxConnsPerHost: cfg.concurrency() * cfg.connsPerUser(),
		// Wait instead of failing at once if the pool is momentarily full; the wait is bounded by
		// the request timeout and lands in the measured latency.
		MaxConnWaitTimeout: cfg.Timeout,
		// One attempt per request: fasthttp retries idempotent requests up to five times by
		// default, which would hide failures and multiply latencies. The loader resends only
		// what a browser would, and counts it (see roundTrip).
		MaxIdemponentCallAttempts: 1,
		// No ReadTimeout or WriteTimeout: the per-request SetTimeout already bounds writing,
		// reading and the streamed body, and each of them would cost a clock reading per request.
		MaxIdleConnDuration: cfg.idleConn(),
		// Room for large cookie headers. The buffers are pooled per request, not per
		// connection, but every user waiting for an answer holds one.
		ReadBufferSize: cfg.headerBuffer(),
		// Bodies are streamed and discarded by the user (see readBody), so a 2 GB answer costs
		// no memory; the request's deadline still bounds reading them.
		StreamResponseBody: true,
		// Unused by fasthttp in practice: every TLS conn the dialer hands back has already
		// shaken hands (see handshake), and fasthttp takes such a conn as it is.
		TLSConfig: tc,
		ConfigureClient: func(hc *fasthttp.HostClient) error {
			// Error messages must not quote response bytes: they may hold cookies or tokens.
			hc.SecureErrorLogMessage = true
			if hc.IsTLS {
				// One TLS configuration per host (its server name), made once here.
				htc, err := hostTLSConfig(tc, hc.Addr)
				if err != nil {
					return err
				}
				hc.DialTimeout = func(addr string, timeout time.Duration) (net.Conn, error) {
					return d.dial(addr, timeout, htc)
				}
			}
			return nil
		},
		DisablePathNormalizing:   true,
		NoDefaultUserAgentHeader: cfg.UserAgent == "",
		DialTimeout: func(addr string, timeout time.Duration) (net.Conn, error) {
			return d.dial(addr, timeout, nil)
		},
	}
	return c, nil
}

// doer sends a prepared request and fills resp: the run's fasthttp.Client, or h2Client with
// Config.HTTP2. Everything above the exchange (templates, visits, cookies, bodies, results)
// works on fasthttp's request and response either way. Safe for concurrent use.
type doer interface {
	Do(req *fasthttp.Request, resp *fasthttp.Response) error
	// CloseIdleConnections closes the kept-alive connections no request is using.
	CloseIdleConnections()
}

// newDialer makes the run's dialer; it fails on a bad proxy URL.
func newDialer(cfg *Config, cs *connStats) (*dialer, error) {
	d := &dialer{stats: cs} // fasthttp's dial cap stays off: its waiting dials hold goroutines (see maxDialing)
	var err error
	if cfg.Proxy != "" {
		if d.proxy, err = parseProxy(cfg.Proxy, cfg.name("Proxy")); err != nil {
			return nil, err
		}
	}
	if d.routes, err = parseRoutes(cfg); err != nil {
		return nil, err
	}
	d.stockKits(cfg.concurrency() * cfg.connsPerUser())
	return d, nil
}

// dialer opens the run's connections: TCP to the target or a tunnel through the proxy, then
// the TLS handshake for https targets. Safe for concurrent use.
type dialer struct {
	tcp    fasthttp.TCPDialer
	proxy  *proxy  // nil: targets are dialed directly
	routes *routes // Resolve and ConnectTo; nil maps nothing
	stats  *connStats
	kits   chan *dialKit // free kits, see dialKit
	// wrap, when set, wraps each connection opened, on the dial's goroutine (see dialKit.open).
	wrap func(net.Conn) net.Conn
}

func (d *dialer) open(addr string, timeout time.Duration, tc *tls.Config) (net.Conn, error) {
	var deadline time.Time
	if (d.proxy != nil || tc != nil) && timeout > 0 {
		deadline = time.Now().Add(timeout) // the tunnel and the handshake share the dial's time
	}
	// addr keeps naming the host for TLS (see hostTLSConfig); only where the bytes go changes.
	target := d.routes.connectTo(addr)
	to := target
	if d.proxy != nil {
		to = d.proxy.addr
	}
	if why := d.routes.unmapped(to); why != "" {
		host, _, _ := net.SplitHostPort(to)
		return nil, &net.DNSError{Name: host, Err: why, IsNotFound: true}
	}
	raw, err := d.connect(d.routes.dialAddrs(to), timeout)
	if err != nil {
		if d.proxy != nil {
			return nil, fmt.Errorf("connecting to the proxy: %w", err) // the error names its address
		}
		return nil, err
	}
	// One per TCP connection, so a tunnel counts once; the proxy's CONNECT exchange and the TLS
	// records are in the wire bytes.
	d.stats.opened.Add(1)
	var conn net.Conn = &countingConn{Conn: raw, stats: d.stats, raw: newRawSocket(raw)}
	if d.proxy == nil && tc == nil {
		return conn, nil
	}
	if conn, err = d.secure(conn, target, deadline, tc); err != nil {
		raw.Close()
		return nil, err
	}
	return conn, nil
}

// connect opens a TCP connection to the first of addrs that accepts one, within timeout in
// all: --resolve may give a host several addresses, tried in turn as curl does.
func (d *dialer) connect(addrs []string, timeout time.Duration) (net.Conn, error) {
	var end time.Time
	if len(addrs) > 1 && timeout > 0 {
		end = time.Now().Add(timeout)
	}
	var err error
	for i, to := range addrs {
		if i > 0 {
			if timeout = time.Until(end); timeout <= 0 {
				break // fasthttp's dialer would fail at once; the last error says why
			}
		}
		var raw net.Conn
		if strings.HasPrefix(to, "[") {
			// fasthttp dials IPv4 only by default; an IPv6 literal needs the dual-stack path.
			raw, err = d.tcp.DialDualStackTimeout(to, timeout)
		} else {
			raw, err = d.tcp.DialTimeout(to, timeout)
		}
		if err == nil {
			return raw, nil
		}
	}
	return nil, err
}

// secure opens the proxy's tunnel to addr and the TLS session, as far as each is asked for.
func (d *dialer) secure(conn net.Conn, addr string, deadline time.Time, tc *tls.Config) (net.Conn, error) {
	if d.proxy != nil {
		if err := conn.SetDeadline(deadline); err != nil {
			return nil, err
		}
		var err error
		if conn, err = d.proxy.connect(conn, addr); err != nil {
			return nil, err
		}
		if err := conn.SetDeadline(time.Time{}); err != nil {
			return nil, err
		}
	}
	if tc != nil {
		return handshake(conn, tc, addr, deadline)
	}
	return conn, nil
}

// countingConn counts the bytes that cross the socket, headers included, which the body sizes
// reported by fasthttp leave out.
type countingConn struct {
	net.Conn
	stats *connStats
	raw   *rawSocket // reads and writes the socket where the system allows; nil where not
}

func (c *countingConn) Read(p []byte) (n int, err error) {
	if c.raw != nil {
		n, err = c.raw.read(p)
	} else {
		n, err = c.Conn.Read(p)
	}
	c.stats.bytesIn.Add(int64(n))
	return n, err
}

func (c *countingConn) Write(p []byte) (n int, err error) {
	if c.raw != nil {
		n, err = c.raw.write(p)
	} else {
		n, err = c.Conn.Write(p)
	}
	c.stats.bytesOut.Add(int64(n))
	return n, err
}
