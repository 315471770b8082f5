// Package holdsite is a loopback server that accepts connections and never answers on them:
// every request sent to it stays in flight until the site is closed. Memory measurements of
// many users waiting at once use it; it keeps no per-connection goroutine or buffer, so its
// own footprint stays small next to the client's.
package holdsite

import (
	"errors"
	"fmt"
	"net"
	"sync"
)

// Site listens on one or more loopback addresses and holds every connection it accepts.
type Site struct {
	lns  []net.Listener
	mu   sync.Mutex
	held []net.Conn
	wg   sync.WaitGroup
}

// Start listens on each of addrs ("127.0.0.1:0" picks a free port). Several ports let more
// connections in than one client address can open to one port (about 28 000 by default).
func Start(addrs ...string) (*Site, error) {
	s := &Site{}
	for _, a := range addrs {
		ln, err := net.Listen("tcp", a)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("listening on %s: %w", a, err)
		}
		s.lns = append(s.lns, ln)
		s.wg.Add(1)
		go s.accept(ln)
	}
	return s, nil
}

// Addrs returns the addresses the site listens on.
func (s *Site) Addrs() []string {
	out := make([]string, len(s.lns))
	for i, ln := range s.lns {
		out[i] = ln.Addr().String()
	}
	return out
}

// Held returns how many connections the site holds.
func (s *Site) Held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.held)
}

func (s *Site) accept(ln net.Listener) {
	defer s.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue // out of file descriptors, say: the client sees its request wait
		}
		s.mu.Lock()
		s.held = append(s.held, c)
		s.mu.Unlock()
	}
}

// Close stops listening and closes every held connection. Safe to call more than once.
func (s *Site) Close() {
	for _, ln := range s.lns {
		ln.Close()
	}
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.held {
		c.Close()
	}
	s.held = nil
}
