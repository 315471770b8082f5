//go:build !unix

package inputfile

import "errors"

// mkfifo fails: this system has no FIFOs among files (the cases that need one skip off Linux).
func mkfifo(string) error { return errors.ErrUnsupported }
