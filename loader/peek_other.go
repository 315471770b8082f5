//go:build !unix

package loader

import "net"

// idleCheck tells whether usable can look at an idle connection's socket on this system.
// Windows has no non-blocking peek on the sockets Go's runtime keeps in overlapped mode (recv
// with MSG_PEEK would wait for data), so an idle connection the server closed is found only by
// the request written to it: an idempotent one (GET, HEAD, PUT, DELETE) is then resent on a new
// connection (see roundTrip), a POST fails as closed. PlatformNotes says so.
const idleCheck = false

// watchSocket keeps no socket: usable does not look.
func (c *wireConn) watchSocket(net.Conn) {}

// usable takes every idle connection for usable (see idleCheck).
func (c *wireConn) usable() bool { return true }

// awaitAnswer does not wait: the answer is waited for in the read, read buffer held.
func (c *wireConn) awaitAnswer() {}
