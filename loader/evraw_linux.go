//go:build linux

package loader

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The loop's reads and writes go on non-blocking sockets: they return at once, having done
// what the socket allowed, so they are made as raw system calls. unix.Read and unix.Write tell
// the scheduler of each call, so that it may give the thread's processor to other goroutines
// while the call blocks; that bookkeeping, on calls that never block, took 7 % of the loop's
// own CPU at 200 connections (see rawSocket for what else it costs).

// rawRead is read(2) on the non-blocking fd.
func rawRead(fd int, p []byte) (int, error) {
	return errnoResult(rawIO(unix.SYS_READ, uintptr(fd), p))
}

// rawWrite is write(2) on the non-blocking fd.
func rawWrite(fd int, p []byte) (int, error) {
	return errnoResult(rawIO(unix.SYS_WRITE, uintptr(fd), p))
}

// rawIO is read(2) or write(2) (trap) of p on fd, as a raw system call.
func rawIO(trap, fd uintptr, p []byte) (int, unix.Errno) {
	var ptr unsafe.Pointer
	if len(p) > 0 {
		ptr = unsafe.Pointer(&p[0])
	}
	n, _, errno := unix.RawSyscall(trap, fd, uintptr(ptr), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), 0
}

// errnoResult is rawIO's result as unix.Read's: the errno as an error, nil for none.
func errnoResult(n int, errno unix.Errno) (int, error) {
	if errno != 0 {
		return 0, errno
	}
	return n, nil
}
