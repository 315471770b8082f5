package faultsite

import (
	"errors"
	"fmt"
	"time"
)

// restartRetry is how long to wait before trying the address again when the kernel is
// not yet willing to give it back.
const restartRetry = 10 * time.Millisecond

// GoDown makes the site unreachable now (listener closed, every open connection closed, so
// clients see refused or reset) and brings it back on the SAME address after d, in the
// background. It returns once the site is down. Hits and Connections carry on across it.
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
	// Added under the lock with closed still false, so Close's Wait is sure to see it.
	s.wg.Add(1)
	s.mu.Unlock()

	s.shutdown(g, true)
	go s.comeBack(d)
	return nil
}

// comeBack relistens on the old address once d has passed, unless Close comes first.
// Until it succeeds it keeps trying, since a test waiting for the site to return has no
// other way to learn that it never will; the last failure is reported by Close.
func (s *Site) comeBack(d time.Duration) {
	defer s.wg.Done()
	wait := d
	for {
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		err := s.listen(s.addr)
		s.restartErr = err
		if err == nil {
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		wait = restartRetry
	}
}
