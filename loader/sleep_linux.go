package loader

import (
	"syscall"
	"time"
)

// nanosleep blocks the calling thread for d with the kernel's high-resolution timer. It is
// meant for short waits (a few milliseconds) where runtime timers are too coarse.
func nanosleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		if err := syscall.Nanosleep(&ts, &rem); err != syscall.EINTR {
			return
		}
		ts = rem // interrupted by a signal: sleep the rest
	}
}
