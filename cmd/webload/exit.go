package main

import (
	"errors"
	"fmt"
	"io"
)

// Exit codes, documented in the README.
// 129, 130 and 143 (128 plus the signal) come from signalCause.
const (
	exitOK         = 0
	exitGateFailed = 1 // an --assert, --abort-on, --max-regression or --max-content-changes gate failed, or no request succeeded
	exitUsage      = 2 // bad flags, unreadable or malformed input, unresolvable hosts
	exitAborted    = 3 // --failures reached
	// exitInconclusive: no --max-regression limit failed, but a change beyond one could not be
	// told from noise.
	exitInconclusive = 4
	exitBug          = 70 // the accounting check failed: a bug in webload (EX_SOFTWARE)
)

// abortedError says the run stopped at its failure threshold, after writing its report.
// failed is the run's real count of requests without a response: the requests in flight when
// the threshold was reached end too, and may fail, so it can exceed the threshold.
type abortedError struct{ threshold, failed int64 }

func (e abortedError) Error() string {
	return fmt.Sprintf("aborted: %d requests got no response (--failures %d); the report covers what was measured",
		e.failed, e.threshold)
}

// bugError says webload's own accounting is wrong; the outputs were written but are suspect.
type bugError struct{ err error }

func (e bugError) Error() string {
	return fmt.Sprintf("BUG: %v; the report above is suspect, please report this", e.err)
}

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

// exitCode prints err as one line (several mistakes a line each) and maps it to the process exit code. Errors that are not
// known to be the user's mistake still exit 2: everything a run measured has been written by then.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var intr interruptedError
	if errors.As(err, &intr) {
		return intr.cause.exitCode()
	}
	var several usageErrors
	if errors.As(err, &several) {
		for _, e := range several {
			fmt.Fprintf(stderr, "webload: %v\n", e)
		}
		return exitUsage
	}
	fmt.Fprintf(stderr, "webload: %v\n", err)
	var gate gateError
	var abortGate abortGateError
	var aborted abortedError
	var bug bugError
	var inconclusive inconclusiveError
	var none noSuccessError
	switch {
	case errors.As(err, &gate), errors.As(err, &abortGate), errors.As(err, &none):
		return exitGateFailed
	case errors.As(err, &inconclusive):
		return exitInconclusive
	case errors.As(err, &aborted):
		return exitAborted
	case errors.As(err, &bug):
		return exitBug
	}
	return exitUsage
}
