package faultsite

import (
	"errors"
	"fmt"
	"time"
)

// restartRetry is how long to wait before trying the address again when the kernel is
// not yet willing to give it back.
const restartRetry = 10 * time.Millisecond

// outage is one GoDown's wait to come back, so that Up can cut it short and learn its end.
type outage struct {
	wake  chan struct{} // closed by Up: come back now rather than when the timer says
	woken bool          // guarded by Site.mu; wake is closed once
	done  chan struct{} // closed when the comeback has ended, the site up or closed
	err   error         // written before done is closed: nil when the site came back
	// release lets go of the port held while the site is down (see holdPort); nil once let go
	// or when it could not be held. Only comeBack uses it.
	release func()
}

// GoDown makes the site unreachable now (listener closed, every open connection closed, so
// clients see refused or reset) and brings it back on the SAME address after d, in the
// background, or sooner if Up is called. It returns once the site is down. Hits and
// Connections carry on across it.
func (s *Site) GoDown(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("faultsite: GoDown(%v): negative duration", d)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errors.New("faultsite: GoDown: site is closed")
	}
	if s.gen == nil {
		s.mu.Unlock()
		return errors.New("faultsite: GoDown: site is already down")
	}
	g := s.stopLocked()
	o := &outage{wake: make(chan struct{}), done: make(chan struct{})}
	s.outage = o
	// Added under the lock with closed still false, so Close's Wait is sure to see it.
	s.wg.Add(1)
	s.mu.Unlock()

	s.shutdown(g, true)
	// Held at once, so that no other listener is given the port while the site is down. A
	// port that cannot be held is left free, as before: the outage still happens.
	o.release, _ = holdPort(s.addr)
	go s.comeBack(d, o)
	return nil
}

// Up ends the current outage now instead of when GoDown's duration runs out, and returns
// once the site listens again on its address, so that a test can sequence an outage
// with no timer involved: GoDown(time.Hour), check the refusals, Up. Like the comeback it
// stands for, it keeps trying while the kernel holds the address, until Close. It is an
// error to call it on a site that is up or closed, or to Close the site while Up waits.
func (s *Site) Up() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errors.New("faultsite: Up: site is closed")
	}
	o := s.outage
	if o == nil {
		s.mu.Unlock()
		return errors.New("faultsite: Up: site is not down")
	}
	if !o.woken {
		o.woken = true
		close(o.wake)
	}
	s.mu.Unlock()
	<-o.done
	return o.err
}

// comeBack relistens on the old address once d has passed or Up asks, unless Close comes
// first. Until it succeeds it keeps trying, since a test waiting for the site to return has
// no other way to learn that it never will; the last failure is reported by Close.
func (s *Site) comeBack(d time.Duration, o *outage) {
	defer s.wg.Done()
	o.err = errors.New("faultsite: site closed while down")
	defer close(o.done)
	defer o.letGo()
	wait, wake := d, o.wake
	for {
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return
		case <-wake:
			t.Stop()
			wake = nil // woken once; from now on only the retries' timer
		case <-t.C:
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		o.letGo() // the port is bound again right after
		err := s.listen(s.addr)
		s.restartErr = err
		if err == nil {
			s.outage = nil
			o.err = nil
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		wait = restartRetry
	}
}

// letGo lets go of the port held while the site is down, once.
func (o *outage) letGo() {
	if o.release != nil {
		o.release()
		o.release = nil
	}
}
