//go:build unix

package inputfile

import (
	"os"
	"syscall"
)

// ReadFlags are the flags to open an input with (os.OpenFile, os.Root.OpenFile) before Check:
// O_NONBLOCK, so that opening a FIFO without a writer returns at once and Check refuses it,
// where a plain open would wait for a writer.
const ReadFlags = os.O_RDONLY | syscall.O_NONBLOCK

// blocking clears O_NONBLOCK on a file Check accepted. A regular file never blocks; clearing
// the flag keeps reads ordinary all the same.
func blocking(f *os.File) {
	_ = syscall.SetNonblock(int(f.Fd()), false)
}
