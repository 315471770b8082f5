package main

import (
	"errors"
	"syscall"
)

// stdoutErr is the error of printing to stdout, with one failure forgiven: EPIPE, a reader
// that closed the pipe (`webload ... | head -1`). That reader took what it wanted, so it is
// no error of webload's, and the files asked for are still written. main ignores SIGPIPE so
// that such a write returns EPIPE instead of killing the process.
func stdoutErr(err error) error {
	if errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return err
}
