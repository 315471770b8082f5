package main

import (
	"errors"
	"fmt"
	"io"
)

// Exit codes, documented in the README.
// 130 and 143 come from signalCause.
const (
	exitOK         = 0
	exitGateFailed = 1 // an --assert or --max-regression check failed
	exitUsage      = 2 // bad flags, unreadable or malformed input, unresolvable hosts
)

// usageError marks a mistake in what the user asked for: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// interruptedError says the run was stopped by a signal after its report was written.
type interruptedError struct{ cause signalCause }

func (e interruptedError) Error() string { return e.cause.Error() }

// exitCode prints err as one line and maps it to the process exit code. Errors that are not
// known to be the user's mistake still exit 2: everything a run measured has been written by then.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var intr interruptedError
	if errors.As(err, &intr) {
		return intr.cause.exitCode()
	}
	var gate gateError
	if errors.As(err, &gate) {
		fmt.Fprintf(stderr, "webload: %v\n", err)
		return exitGateFailed
	}
	fmt.Fprintf(stderr, "webload: %v\n", err)
	return exitUsage
}
