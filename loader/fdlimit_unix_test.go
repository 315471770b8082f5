//go:build unix

package loader

import (
	"syscall"
	"testing"
)

// Not parallel: it changes the process's open-files limit (and restores it).
func TestRaiseFileLimit(t *testing.T) {
	var orig syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &orig); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &orig) })
	if orig.Max < 2*fdHeadroom+10 {
		t.Skipf("hard limit %d too low to test", orig.Max)
	}
	low := orig
	low.Cur = fdHeadroom + 10
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip("cannot lower the soft limit here:", err)
	}
	if err := RaiseFileLimit(fdHeadroom); err != nil { // needs 2*headroom: more than the soft limit
		t.Fatal(err)
	}
	var now syscall.Rlimit
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now)
	if now.Cur != 2*fdHeadroom {
		t.Errorf("soft limit %d, want %d", now.Cur, 2*fdHeadroom)
	}
	if err := RaiseFileLimit(int(orig.Max)); err == nil {
		t.Error("more users than the hard limit allows were accepted")
	}
}
