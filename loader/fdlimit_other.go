//go:build !unix

package loader

// fileLimit says there is no limit: Windows bounds a process's sockets by memory and ports,
// not by a number it could raise.
func fileLimit() (openFiles, error) { return openFiles{}, ErrNoFileLimit }

// setFileLimit is never reached: RaiseFileLimit stops at fileLimit's ErrNoFileLimit.
func setFileLimit(uint64) error { return ErrNoFileLimit }
