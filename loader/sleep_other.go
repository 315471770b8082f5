//go:build !linux

package loader

import "time"

// nanosleep waits d with the runtime's timer. Only Linux needs the system call: its poller
// (epoll) takes its timeout in milliseconds, so a runtime timer there can wake up to a
// millisecond late. The kqueue poller of macOS and the BSDs takes nanoseconds, so a timer wakes
// as precisely as the kernel schedules. On Windows the runtime uses the high-resolution
// waitable timer where the system has one (Windows 10 1803 and later), a fraction of a
// millisecond; older systems wake on the system timer, about a millisecond, which then adds
// to the response times of a --rate run.
func nanosleep(d time.Duration) {
	time.Sleep(d)
}
