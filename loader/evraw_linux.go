//go:build linux

package loader

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The loop's reads and writes go on non-blocking sockets: they return at once, having done
// what the socket allowed, so they are made as raw system calls. unix.Read and unix.Write tell
// the scheduler of each call, so that it may give the thread's processor to other goroutines
// while the call blocks; that bookkeeping, on calls that never block, was the largest part of
// the loop's own CPU after parsing answers.

// rawRead is read(2) on the non-blocking fd.
func rawRead(fd int, p []byte) (int, error) {
	return rawIO(unix.SYS_READ, fd, p)
}

// rawWrite is write(2) on the non-blocking fd.
func rawWrite(fd int, p []byte) (int, error) {
	return rawIO(unix.SYS_WRITE, fd, p)
}

func rawIO(trap uintptr, fd int, p []byte) (int, error) {
	var ptr unsafe.Pointer
	if len(p) > 0 {
		ptr = unsafe.Pointer(&p[0])
	}
	n, _, errno := unix.RawSyscall(trap, uintptr(fd), uintptr(ptr), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
