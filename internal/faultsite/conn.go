package faultsite

import (
	"net"
	"sync/atomic"
)

// trackingListener records every accepted connection in the site's open set, because
// http.Server forgets hijacked connections and GoDown and Close must still cut them.
type trackingListener struct {
	net.Listener
	s *Site
	g *generation
}

// Accept counts and registers the connection. One accepted after its generation was
// stopped would escape the shutdown snapshot, so it is reset at once and the next Accept
// (which fails on the closed listener) is what Serve gets to see.
func (l *trackingListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.s.conns.Add(1)
		tcp, ok := c.(*net.TCPConn)
		if !ok {
			// Only net.Listen("tcp") listeners are ever wrapped, so this cannot happen;
			// refusing beats serving a connection that cannot be reset.
			_ = c.Close()
			continue
		}
		tc := &trackedConn{TCPConn: tcp, s: l.s}
		l.s.mu.Lock()
		stopped := l.g.stopped
		if !stopped {
			l.s.open[tc] = struct{}{}
		}
		l.s.mu.Unlock()
		if !stopped {
			return tc, nil
		}
		_ = tcp.SetLinger(0)
		_ = tcp.Close()
	}
}

// trackedConn leaves the open set when closed. Embedding *net.TCPConn keeps SetLinger for
// the RST endpoints and ReadFrom for net/http's fast paths.
type trackedConn struct {
	*net.TCPConn
	s *Site
}

// Close may run twice (by the site and by its owner); only the first close matters.
func (c *trackedConn) Close() error {
	c.s.mu.Lock()
	delete(c.s.open, c)
	c.s.mu.Unlock()
	return c.TCPConn.Close()
}

// connKey is the context key under which each connection's connInfo travels.
type connKey struct{}

// connInfo is state kept per connection rather than per request.
type connInfo struct {
	// closeAfter counts /close-after responses on this connection, so the N-th one can
	// close it whichever other requests came in between.
	closeAfter atomic.Int64
}
