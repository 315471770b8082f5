package loader

import (
	"crypto/tls"
	"net"
	"time"

	"github.com/valyala/fasthttp"
)

// maxDialing is how many connections a run opens at once at most; a dial beyond it waits for
// one of them to end, and its wait counts in its time. Each dial runs on a goroutine whose stack
// grows to 8 KiB (Go's dialer calls deep), so 10 000 users starting together would hold some
// 25 MB of such stacks for a moment, which stays in the process's memory; 1 024 at once still
// open tens of thousands of connections a second on a loopback or a LAN (one dial is a round
// trip, plus the TLS handshake for https).
const maxDialing = 1024

// dialKit is what a dial needs to run on a goroutine of its own (see dialer.dial): where to,
// the answer, and the channel that says it is there. Kits are made before the run, not at the
// dial: fasthttp calls the dialer under a user's deepest call chain, where an allocation that
// takes the allocator's slow path (refilling or sweeping a span) is deep enough to double the
// user's stack for the rest of the run (from 4 to 8 KiB: 40 MB at 10 000 users). The run's
// kits are its dials at once: one free is taken, none free is waited for.
type dialKit struct {
	d       *dialer
	addr    string
	timeout time.Duration
	tc      *tls.Config
	conn    net.Conn
	err     error
	done    chan struct{}
	run     func() // k.open, made once: a method value made at each dial would allocate
}

// open dials, on the kit's own goroutine, and wraps what it opened there too: the wrapping
// allocates, and the allocator's slow path under the user's dial call chain would grow the
// user's stack to 8 KiB (see dialKit).
func (k *dialKit) open() {
	k.conn, k.err = k.d.open(k.addr, k.timeout, k.tc)
	if k.err == nil && k.d.wrap != nil {
		k.conn = k.d.wrap(k.conn)
	}
	k.done <- struct{}{}
}

// stockKits makes the run's n kits: as many as its connections, at most maxDialing.
func (d *dialer) stockKits(n int) {
	n = min(max(n, 1), maxDialing)
	d.kits = make(chan *dialKit, n)
	for range n {
		k := &dialKit{d: d, done: make(chan struct{}, 1)}
		k.run = k.open
		d.kits <- k
	}
}

// dial opens a connection to addr (host:port) within timeout, shaking hands with tc unless it
// is nil. Dialing runs on a goroutine of its own, which dial waits for: its call chain is the
// deepest a user ever makes, and on the user's goroutine it would double that stack for the
// whole run (8 KiB instead of 4 KiB per user, 40 MB at 10 000 users). It allocates nothing,
// also when it has to wait for a kit: a timer would allocate, under the deepest call chain
// (see dialKit).
func (d *dialer) dial(addr string, timeout time.Duration, tc *tls.Config) (net.Conn, error) {
	var k *dialKit
	select {
	case k = <-d.kits:
	default:
		// maxDialing dials are under way: wait for the first to end. Waiters are served in turn
		// and every dial ends within its own time, which began before this one's: the wait ends
		// within this dial's time too. What it took is taken from the dial's time.
		began := time.Now()
		k = <-d.kits
		if timeout > 0 {
			if timeout -= time.Since(began); timeout <= 0 {
				d.kits <- k
				return nil, fasthttp.ErrDialTimeout // what a connect that took the time says
			}
		}
	}
	k.addr, k.timeout, k.tc = addr, timeout, tc
	go k.run()
	<-k.done
	conn, err := k.conn, k.err
	k.addr, k.tc, k.conn, k.err = "", nil, nil, nil
	d.kits <- k // never full: every kit in it was taken from it
	return conn, err
}
