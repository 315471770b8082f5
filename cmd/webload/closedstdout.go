package main

import "github.com/webload/webload/run"

// stdoutErr forgives a reader that closed stdout (EPIPE), as a run's own printing does; main
// ignores SIGPIPE so that such a write returns EPIPE instead of killing the process.
func stdoutErr(err error) error { return run.StdoutErr(err) }
