//go:build !unix

package dbtest

import "syscall"

// asUser starts a process as the current user: only Unix has root, whose servers must switch
// to an account of their own (os.Geteuid is -1 elsewhere, so Postgres never asks).
func asUser(int, int) *syscall.SysProcAttr { return nil }
