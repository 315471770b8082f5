package loader

import (
	"errors"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Dials borrow the run's kits and give them back emptied; more dials at once than kits make
// kits of their own, which the free list does not keep beyond its stock.
func TestDialKits(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	d := &dialer{stats: &connStats{}}
	d.stockKits(2)
	const dials = 6
	var wg sync.WaitGroup
	errs := make(chan error, dials)
	for range dials {
		wg.Go(func() {
			conn, err := d.dial(ln.Addr().String(), 10*time.Second, nil)
			if err == nil {
				conn.Close()
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("dial: %v", err)
		}
	}
	_, err = d.dial(closedPort(t), 10*time.Second, nil)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial to a closed port: %v, want connection refused", err)
	}
	if got := len(d.kits); got != 2 || d.stats.opened.Load() != dials {
		t.Fatalf("%d kits free after the dials, %d connections opened; want 2 and %d", got, d.stats.opened.Load(), dials)
	}
	for range 2 {
		if k := <-d.kits; k.conn != nil || k.err != nil || k.addr != "" {
			t.Errorf("a kit given back holds %v, %v, %q", k.conn, k.err, k.addr)
		}
	}
}
