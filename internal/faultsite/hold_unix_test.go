//go:build unix

package faultsite

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"
)

// TestGoDownHoldsThePort: while the site is down, its port refuses connections and no other
// listener can have it (a test server elsewhere that did would answer this site's clients),
// and Up gets it back. The outage of an hour ends by Up, not by a timer.
func TestGoDownHoldsThePort(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	addr := s.Addr()
	if err := s.GoDown(time.Hour); err != nil {
		t.Fatal(err)
	}
	if ln, err := net.Listen("tcp", addr); err == nil {
		ln.Close()
		t.Fatalf("another listener got %s while the site was down", addr)
	} else if !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("listening on %s while the site was down: %v, want address in use", addr, err)
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatalf("a connection to %s was accepted while the site was down", addr)
	} else if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("connecting to %s while the site was down: %v, want refused", addr, err)
	}
	if err := s.Up(); err != nil {
		t.Fatal(err)
	}
	if resp, _ := get(t, newClient(t), s.URL("/ok")); resp.StatusCode != 200 {
		t.Errorf("after Up: %d, want 200", resp.StatusCode)
	}
}
