package loader

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// slowProxy is a loopback CONNECT proxy that takes hold before it answers each tunnel, and
// counts the tunnels being opened at once: a dial through it is under way for that long.
type slowProxy struct {
	addr      string
	now, most atomic.Int64
}

func newSlowProxy(t *testing.T, hold time.Duration) *slowProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &slowProxy{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
					return
				}
				n := p.now.Add(1)
				for m := p.most.Load(); n > m && !p.most.CompareAndSwap(m, n); m = p.most.Load() {
				}
				time.Sleep(hold)
				p.now.Add(-1)
				io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
				io.Copy(io.Discard, c) // until the client closes the tunnel
			})
		}
	})
	return p
}

// A run opens at most as many connections at once as it has dial kits; the dials beyond wait
// for a kit and then go out, and every kit comes back emptied.
func TestDialsAtOnceBounded(t *testing.T) {
	t.Parallel()
	p := newSlowProxy(t, 100*time.Millisecond)
	d, err := newDialer(&Config{Proxy: "http://" + p.addr}, &connStats{})
	if err != nil {
		t.Fatal(err)
	}
	d.stockKits(2)
	const dials = 6
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range dials {
		wg.Go(func() {
			conn, err := d.dial("127.0.0.1:9", 30*time.Second, nil)
			if err != nil {
				t.Log(err)
				failed.Add(1)
				return
			}
			conn.Close()
		})
	}
	wg.Wait()
	if failed.Load() != 0 || p.most.Load() != 2 || d.stats.opened.Load() != dials {
		t.Errorf("%d of %d dials failed, %d tunnels opened at once, %d connections; want 0, 2, %d",
			failed.Load(), dials, p.most.Load(), d.stats.opened.Load(), dials)
	}
	if got := len(d.kits); got != 2 {
		t.Fatalf("%d kits free after the dials, want 2", got)
	}
	for range 2 {
		if k := <-d.kits; k.conn != nil || k.err != nil || k.addr != "" {
			t.Errorf("a kit given back holds %v, %v, %q", k.conn, k.err, k.addr)
		}
	}
}

// A dial that waits for a kit longer than its time fails as a connect that took the time does,
// and one that gets its kit in time dials; a refused connect is reported as such.
func TestDialWaitsForKitWithinItsTime(t *testing.T) {
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
			c.Close()
		}
	}()
	d := &dialer{stats: &connStats{}}
	d.stockKits(1)
	k := <-d.kits // a dial under way, which ends when the test gives its kit back
	tests := []struct {
		name    string
		timeout time.Duration
		back    time.Duration // how long the dial waits for the kit
		want    error
	}{
		{"kit back after the dial's time", 50 * time.Millisecond, 300 * time.Millisecond, fasthttp.ErrDialTimeout},
		{"kit back in time", 30 * time.Second, 20 * time.Millisecond, nil},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() {
			conn, err := d.dial(ln.Addr().String(), tt.timeout, nil)
			if err == nil {
				conn.Close()
			}
			done <- err
		}()
		for i := 0; i < 1000 && goroutinesIn("(*dialer).dial") == 0; i++ { // at most 10 s
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(tt.back) // the dial waits at least this long
		select {
		case d.kits <- k:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the kit has no room to come back: the dial took another", tt.name)
		}
		if err := <-done; !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
		k = <-d.kits
	}
	d.kits <- k
	if _, err := d.dial(closedPort(t), 10*time.Second, nil); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial to a closed port: %v, want connection refused", err)
	}
}
