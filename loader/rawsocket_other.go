//go:build !linux || race

package loader

import "net"

// rawSocket is Linux's (see rawsocket_linux.go). Elsewhere, and under the race detector,
// connections read and write as net.Conn does: its system calls tell the detector that what
// one goroutine did before writing to a socket happened before what another does after
// reading it (a test's server and its client), which raw calls cannot tell it.
type rawSocket struct{}

func newRawSocket(net.Conn) *rawSocket { return nil }

func (*rawSocket) read([]byte) (int, error)  { panic("no raw socket here") }
func (*rawSocket) write([]byte) (int, error) { panic("no raw socket here") }
