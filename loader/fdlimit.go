package loader

import (
	"errors"
	"fmt"
)

// fdHeadroom covers what a run holds besides its sockets: standard streams, log and result
// files, the runtime's own descriptors.
const fdHeadroom = 64

// ErrNoFileLimit says the system has no per-process limit on open files to read or raise
// (Windows: sockets are handles, bounded by memory and ports rather than by a number a process
// can raise).
var ErrNoFileLimit = errors.New("this system has no per-process limit on open files")

// openFiles is the process's limit on open files (RLIMIT_NOFILE): the soft limit in force and
// the hard limit up to which the process may raise it.
type openFiles struct{ cur, max uint64 }

// RaiseFileLimit makes room for one socket per user at once: it raises the soft limit on open
// files (RLIMIT_NOFILE) up to the hard limit when the run needs more than the soft one allows.
// It fails when even the hard limit is too low, so a large run stops before it starts instead
// of failing thousands of connections with "too many open files". Where the system has no
// such limit (ErrNoFileLimit) there is nothing to raise, and it returns nil.
func RaiseFileLimit(users int) error {
	need := uint64(users) + fdHeadroom
	lim, err := fileLimit()
	if errors.Is(err, ErrNoFileLimit) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the open-files limit: %w", err)
	}
	if lim.cur >= need {
		return nil
	}
	if lim.max < need {
		return fmt.Errorf("%d users need about %d open files but the hard limit is %d: raise it (ulimit -Hn, or LimitNOFILE for a service) or use fewer users", users, need, lim.max)
	}
	if err := setFileLimit(need); err != nil {
		return fmt.Errorf("raise the open-files limit to %d: %w", need, err)
	}
	return nil
}

// MaxUsersForFileLimit is how many users the hard open-files limit allows. It fails with
// ErrNoFileLimit where the system has no such limit.
func MaxUsersForFileLimit() (int, error) {
	lim, err := fileLimit()
	if err != nil {
		return 0, fmt.Errorf("read the open-files limit: %w", err)
	}
	if lim.max <= fdHeadroom {
		return 0, nil
	}
	return int(min(lim.max-fdHeadroom, 1<<30)), nil
}
