//go:build unix

package faultsite

import (
	"fmt"
	"net/netip"

	"golang.org/x/sys/unix"
)

// holdPort binds a socket to addr (ip:port) without listening on it, so that while the site
// is down its port refuses connections as a stopped server's does and no other listener on
// the machine can be given it: a test server elsewhere that picked the free port would
// answer this site's clients during the outage. The returned function lets the port go.
func holdPort(addr string) (release func(), err error) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, fmt.Errorf("faultsite: holding %s: %w", addr, err)
	}
	family := unix.AF_INET
	var sa unix.Sockaddr = &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}
	if ap.Addr().Is6() && !ap.Addr().Is4In6() {
		family = unix.AF_INET6
		sa = &unix.SockaddrInet6{Port: int(ap.Port()), Addr: ap.Addr().As16()}
	}
	fd, err := unix.Socket(family, unix.SOCK_STREAM, 0)
	if err != nil {
		return nil, fmt.Errorf("faultsite: holding %s: %w", addr, err)
	}
	unix.CloseOnExec(fd)
	// No SO_REUSEADDR: two sockets that both set it may share a port that neither listens on,
	// and Go's listeners set it, so the hold would not keep them out. Without it the bind
	// fails where a connection the site closed first waits in TIME_WAIT on the port; the
	// outage then goes on unheld, as it would without this.
	if err := unix.Bind(fd, sa); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("faultsite: holding %s: %w", addr, err)
	}
	return func() { _ = unix.Close(fd) }, nil
}
