//go:build unix

package atomicfile

import (
	"io/fs"
	"syscall"
)

// owner is the user and group that own the file info describes, when there is a file and the
// system gives them.
func owner(info fs.FileInfo) (uid, gid int, ok bool) {
	if info == nil {
		return 0, 0, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}
