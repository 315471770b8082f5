package loader

import (
	"crypto/tls"
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
}

// newClient builds the run's one fasthttp client. fasthttp's defaults suit proxies, not load
// generators, so nearly every knob is set here on purpose.
func newClient(cfg *Config, cs *connStats) *fasthttp.Client {
	dialer := &fasthttp.TCPDialer{} // no dial concurrency cap: it would throttle "connection: close" runs
	idle := max(10*time.Second, 2*cfg.Delay)
	c := &fasthttp.Client{
		Name: cfg.UserAgent,
		// Every user holds at most one connection per host at a time, or one per parallel
		// resource fetch when pages are parsed.
		MaxConnsPerHost: cfg.concurrency() * cfg.connsPerUser(),
		// Wait instead of failing at once if the pool is momentarily full; the wait is bounded by
		// the request timeout and lands in the measured latency.
		MaxConnWaitTimeout: cfg.Timeout,
		// One attempt per request: fasthttp retries idempotent requests up to five times by
		// default, which would hide failures and multiply latencies.
		MaxIdemponentCallAttempts: 1,
		// No ReadTimeout or WriteTimeout: the per-request SetTimeout already bounds writing,
		// reading and the streamed body, and each of them would cost a clock reading per request.
		MaxIdleConnDuration: idle,
		// Room for large cookie headers. The buffers are pooled per request, not per
		// connection, but every user waiting for an answer holds one.
		ReadBufferSize: cfg.headerBuffer(),
		// Bodies are streamed and discarded by the user (see readBody), so a 2 GB answer costs
		// no memory; the request's deadline still bounds reading them.
		StreamResponseBody: true,
		// Error messages must not quote response bytes: they may hold cookies or tokens.
		ConfigureClient: func(hc *fasthttp.HostClient) error {
			hc.SecureErrorLogMessage = true
			return nil
		},
		DisablePathNormalizing:   true,
		NoDefaultUserAgentHeader: cfg.UserAgent == "",
		DialTimeout: func(addr string, timeout time.Duration) (net.Conn, error) {
			// Dialing runs on a goroutine of its own: its call chain is the deepest a user ever
			// makes, and on the user's goroutine it would double that stack for the whole run
			// (8 KiB instead of 4 KiB per user, 40 MB at 10 000 users).
			type dialed struct {
				conn net.Conn
				err  error
			}
			ch := make(chan dialed, 1)
			go func() {
				var d dialed
				if strings.HasPrefix(addr, "[") {
					// fasthttp dials IPv4 only by default; an IPv6 literal needs the dual-stack path.
					d.conn, d.err = dialer.DialDualStackTimeout(addr, timeout)
				} else {
					d.conn, d.err = dialer.DialTimeout(addr, timeout)
				}
				ch <- d
			}()
			d := <-ch
			conn, err := d.conn, d.err
			if err != nil {
				return nil, err
			}
			cs.opened.Add(1)
			return &countingConn{Conn: conn, stats: cs}, nil
		},
	}
	if cfg.Insecure {
		c.TLSConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for with --insecure
	}
	return c
}

// countingConn counts the bytes that cross the socket, headers included, which the body sizes
// reported by fasthttp leave out.
type countingConn struct {
	net.Conn
	stats *connStats
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.stats.bytesIn.Add(int64(n))
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.stats.bytesOut.Add(int64(n))
	return n, err
}
