// Package faultsite is a misbehaving web site on loopback for webload's reliability tests.
// Each path fails in one particular way (a reset, a hang, a lie about the body length, a
// flood of bytes, a burst of 503s, an outage) so that a test can check that the load tester
// still counts every request exactly once, times out cleanly and keeps its memory bounded.
// The protocol-valid faults go through net/http; the broken ones hijack the connection and
// write raw bytes, since net/http would refuse to produce them.
package faultsite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// Site is a running fault site on 127.0.0.1.
type Site struct {
	addr   string
	routes map[string]handler
	chunk  []byte // read-only after Start: shared by every /huge response so none allocates

	// ctx is the base of every request context, so that cancelling it on Close ends all
	// waiting handlers at once, whichever connection they are on.
	ctx    context.Context
	cancel context.CancelFunc

	conns  atomic.Int64 // accepted so far, over restarts
	active atomic.Int64 // handlers running now; lets tests see a handler end when its client leaves

	// wg counts serve loops, connection goroutines, handlers and the restart timer, so
	// that Close can return only once none of them is left.
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	mu     sync.Mutex
	closed bool
	gen    *generation // nil while down or closed
	open   map[*trackedConn]struct{}
	hits   map[string]int64
	err    error // why serving failed, reported by Close
	// restartErr is the latest failure to come back after GoDown; a later success
	// clears it, since only an outage that never ended is worth reporting.
	restartErr error
	// outage is the current GoDown's comeback, nil while up; Up ends it early.
	outage *outage
}

// generation is one life of the listener between start, GoDown and restart: a closed
// http.Server cannot serve again, so every restart gets a fresh one.
type generation struct {
	srv     *http.Server
	ln      net.Listener
	done    chan struct{} // closed when Serve has returned
	stopped bool          // guarded by Site.mu; a conn accepted after it is dropped at once
}

// handler serves one endpoint; ordinal is the request's position among all requests for
// its path, counted from 0, which /burst needs to decide deterministically.
type handler func(w http.ResponseWriter, r *http.Request, ordinal int64)

// Start listens on a free port of 127.0.0.1.
func Start() (*Site, error) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Site{
		chunk:  make([]byte, hugeChunk),
		ctx:    ctx,
		cancel: cancel,
		open:   map[*trackedConn]struct{}{},
		hits:   map[string]int64{},
	}
	for i := range s.chunk {
		s.chunk[i] = 'a' + byte(i%26)
	}
	s.routes = s.endpoints()
	s.mu.Lock()
	err := s.listen("127.0.0.1:0")
	if err == nil {
		// Written once, before the Site is shared: restarts reuse it, never change it.
		s.addr = s.gen.ln.Addr().String()
	}
	s.mu.Unlock()
	if err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

// URL returns the absolute URL of a path, e.g. s.URL("/hang") = "http://127.0.0.1:PORT/hang".
func (s *Site) URL(path string) string {
	return "http://" + s.addr + path
}

// Addr is host:port.
func (s *Site) Addr() string {
	return s.addr
}

// Hits is how many requests for the path (without query) have arrived so far.
func (s *Site) Hits(path string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// Connections is how many TCP connections have been accepted so far (over restarts too).
func (s *Site) Connections() int64 {
	return s.conns.Load()
}

// Close stops everything, ends every hanging handler and waits for all goroutines. Idempotent.
func (s *Site) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		g := s.stopLocked()
		s.mu.Unlock()
		// Connections first, contexts second: a handler woken by the cancel must find its
		// connection already gone, or the client could get a late, misleading answer.
		s.shutdown(g, false)
		s.cancel()
		s.wg.Wait()
		s.mu.Lock()
		s.closeErr = errors.Join(s.err, s.restartErr)
		s.mu.Unlock()
	})
	return s.closeErr
}

// listen starts a new generation on addr. The caller holds s.mu and has checked that the
// site is neither closed nor up.
func (s *Site) listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("faultsite: listen on %s: %w", addr, err)
	}
	g := &generation{done: make(chan struct{})}
	g.ln = &trackingListener{Listener: ln, s: s, g: g}
	g.srv = &http.Server{
		Handler:     http.HandlerFunc(s.serve),
		BaseContext: func(net.Listener) context.Context { return s.ctx },
		ConnContext: func(ctx context.Context, _ net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, &connInfo{})
		},
		// The connection goroutines belong to net/http; ConnState is the only place that
		// sees them start and end, so Close can wait for them too.
		ConnState: func(_ net.Conn, st http.ConnState) {
			switch st {
			case http.StateNew:
				s.wg.Add(1)
			case http.StateClosed, http.StateHijacked:
				s.wg.Done()
			}
		},
		// Broken clients are this site's daily bread; their errors are not news.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	s.gen = g
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(g.done)
		if err := g.srv.Serve(g.ln); !errors.Is(err, http.ErrServerClosed) {
			s.mu.Lock()
			s.err = errors.Join(s.err, fmt.Errorf("faultsite: serve: %w", err))
			s.mu.Unlock()
		}
	}()
	return nil
}

// stopLocked detaches the current generation so no new connection joins it. The caller
// holds s.mu and passes the result to shutdown after unlocking.
func (s *Site) stopLocked() *generation {
	g := s.gen
	s.gen = nil
	if g != nil {
		g.stopped = true
	}
	return g
}

// shutdown closes the listener and every open connection, including hijacked ones that
// http.Server no longer knows about. With reset set the connections are aborted with an
// RST, as a crashed server's would be, rather than closed politely. The generation must
// already be stopped, so that no connection slips in after the snapshot.
func (s *Site) shutdown(g *generation, reset bool) {
	s.mu.Lock()
	conns := make([]*trackedConn, 0, len(s.open))
	for c := range s.open {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	if reset {
		for _, c := range conns {
			_ = c.SetLinger(0)
		}
	}
	if g != nil {
		// Server.Close before anything else so that Serve sees it is shutting down and
		// returns ErrServerClosed rather than the closed listener's error.
		_ = g.srv.Close()
	}
	for _, c := range conns {
		_ = c.Close()
	}
	if g != nil {
		<-g.done
	}
}

// serve counts the request, then dispatches it; counting first means a request is counted
// even when its endpoint then breaks the connection.
func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	// The connection goroutine stops being counted once a handler hijacks, so the handler
	// counts itself; the connection's own count keeps this Add off a zero counter.
	s.wg.Add(1)
	defer s.wg.Done()
	s.active.Add(1)
	defer s.active.Add(-1)
	s.mu.Lock()
	ordinal := s.hits[r.URL.Path]
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	h, ok := s.routes[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h(w, r, ordinal)
}
