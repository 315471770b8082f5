//go:build !unix

package loader

import (
	"testing"
	"time"
)

// cpuTime skips: the process's CPU time comes from getrusage, which this system lacks.
func cpuTime(tb testing.TB) time.Duration {
	tb.Helper()
	tb.Skip("the process's CPU time needs getrusage, which this system lacks")
	return 0
}
