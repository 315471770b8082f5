package sysload

import "os"

// localSource reads this machine's load from /proc.
func localSource() (Source, error) { return newProcSource(os.DirFS("/proc")), nil }
