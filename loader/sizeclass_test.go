package loader

import (
	"testing"
	"unsafe"
)

// A user waiting for its answer holds its exchange and its connection for as long as it
// waits, and a run may hold 100 000 of them: each is kept at or under a size class of Go's
// allocator (runtime/sizeclasses.go), where a field more would cost the next class, 256 bytes
// more for the exchange, 32 for the connection. A new fasthttp whose Request or Response grew
// fails here too: make room, or take the larger class knowingly and change the bound.
func TestWaitingUserSizeClasses(t *testing.T) {
	for _, tc := range []struct {
		name        string
		size, class uintptr
	}{
		{"exchange", unsafe.Sizeof(exchange{}), 1792},
		{"wireConn", unsafe.Sizeof(wireConn{}), 384},
	} {
		if tc.size > tc.class {
			t.Errorf("%s: %d bytes, over the %d-byte size class", tc.name, tc.size, tc.class)
		}
	}
}
