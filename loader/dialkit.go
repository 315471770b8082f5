package loader

import (
	"crypto/tls"
	"net"
	"time"
)

// dialKit is what a dial needs to run on a goroutine of its own (see dialer.dial): where to,
// the answer, and the channel that says it is there. Kits are made before the run, not at the
// dial: fasthttp calls the dialer under a user's deepest call chain, where an allocation that
// takes the allocator's slow path (refilling or sweeping a span) is deep enough to double the
// user's stack for the rest of the run (from 4 to 8 KiB: 40 MB at 10 000 users). A kit is
// reused by one dial after another; a dial that finds none free makes one.
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

func newDialKit(d *dialer) *dialKit {
	k := &dialKit{d: d, done: make(chan struct{}, 1)}
	k.run = k.open
	return k
}

// open dials, on the kit's own goroutine.
func (k *dialKit) open() {
	k.conn, k.err = k.d.open(k.addr, k.timeout, k.tc)
	k.done <- struct{}{}
}

// stockKits makes n kits for the dials to come: one for each connection the run starts with.
func (d *dialer) stockKits(n int) {
	d.kits = make(chan *dialKit, n)
	for range n {
		d.kits <- newDialKit(d)
	}
}

// dialOff dials addr on a goroutine of its own and waits for it, allocating nothing when a kit
// is free.
func (d *dialer) dialOff(addr string, timeout time.Duration, tc *tls.Config) (net.Conn, error) {
	var k *dialKit
	select {
	case k = <-d.kits:
	default:
		k = newDialKit(d)
	}
	k.addr, k.timeout, k.tc = addr, timeout, tc
	go k.run()
	<-k.done
	conn, err := k.conn, k.err
	k.addr, k.tc, k.conn, k.err = "", nil, nil, nil
	select {
	case d.kits <- k:
	default: // as many kits free as the run has connections: this one goes
	}
	return conn, err
}
