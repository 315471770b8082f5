//go:build unix

package loader

import "syscall"

// fileLimit reads RLIMIT_NOFILE. The fields are uint64 on Linux and macOS, int64 on FreeBSD,
// where RLIM_INFINITY (-1) reads as the largest uint64: no limit.
func fileLimit() (openFiles, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return openFiles{}, err
	}
	return openFiles{cur: uint64(lim.Cur), max: uint64(lim.Max)}, nil
}

// setFileLimit sets the soft limit on open files to cur, keeping the hard one.
func setFileLimit(cur uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	setRlim(&lim.Cur, cur)
	return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
}

// setRlim stores v in a field of syscall.Rlimit, whichever integer type the system gives it.
func setRlim[T ~int64 | ~uint64](field *T, v uint64) { *field = T(v) }
