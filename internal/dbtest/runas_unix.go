//go:build unix

package dbtest

import "syscall"

// asUser starts a process as the user and group uid and gid, which a process running as root
// may do.
func asUser(uid, gid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
}
