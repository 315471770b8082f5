//go:build !linux

package sysload

import "fmt"

// localSource fails: macOS and Windows keep their load figures outside any /proc, and the
// files this reader parses are Linux's own.
func localSource() (Source, error) {
	return nil, fmt.Errorf("load source %q: %w", LocalSpec, ErrNoProc)
}
