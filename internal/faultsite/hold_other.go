//go:build !unix

package faultsite

// holdPort does nothing where there are no Unix sockets to bind without listening: there,
// another listener may be given the port while the site is down (see hold_unix.go).
func holdPort(string) (release func(), err error) { return func() {}, nil }
