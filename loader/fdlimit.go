package loader

import (
	"fmt"
	"syscall"
)

// fdHeadroom covers what a run holds besides its sockets: standard streams, log and result
// files, the runtime's own descriptors.
const fdHeadroom = 64

// RaiseFileLimit makes room for one socket per user at once: it raises the soft limit on open
// files (RLIMIT_NOFILE) up to the hard limit when the run needs more than the soft one allows.
// It fails when even the hard limit is too low, so a large run stops before it starts instead
// of failing thousands of connections with "too many open files".
func RaiseFileLimit(users int) error {
	need := uint64(users) + fdHeadroom
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("read the open-files limit: %w", err)
	}
	if lim.Cur >= need {
		return nil
	}
	if lim.Max < need {
		return fmt.Errorf("%d users need about %d open files but the hard limit is %d: raise it (ulimit -Hn, or LimitNOFILE for a service) or use fewer users", users, need, lim.Max)
	}
	lim.Cur = need
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("raise the open-files limit to %d: %w", need, err)
	}
	return nil
}

// MaxUsersForFileLimit is how many users the hard open-files limit allows.
func MaxUsersForFileLimit() (int, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("read the open-files limit: %w", err)
	}
	if lim.Max <= fdHeadroom {
		return 0, nil
	}
	return int(min(lim.Max-fdHeadroom, 1<<30)), nil
}
