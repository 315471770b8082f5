//go:build !unix

package atomicfile

import "io/fs"

// owner gives no owner to keep: Windows files have an owner in their security descriptor,
// which os.File.Chown cannot set, and a new file takes its folder's inherited permissions, as
// one that the shell's redirection makes does.
func owner(fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }
