package run

import "fmt"

// SettingError says the Spec asks for something that cannot work, found before the load
// starts: a host that does not resolve, more users than the open files allow, a file that
// cannot be created, an address that cannot be listened on.
type SettingError struct{ Err error }

// Error is the setting's problem, worded by whoever found it.
func (e SettingError) Error() string { return e.Err.Error() }

// Unwrap gives the problem, for errors.Is on the loader's sentinel errors.
func (e SettingError) Unwrap() error { return e.Err }

func settingf(format string, args ...any) error {
	return SettingError{fmt.Errorf(format, args...)}
}

// InterruptedError says ctx ended the series before its plan did, after every output was
// written with what was measured. Cause is the context's cause, such as the signal that
// stopped the run.
type InterruptedError struct{ Cause error }

// Error says the series was interrupted, and by what.
func (e InterruptedError) Error() string {
	if e.Cause == nil {
		return "interrupted"
	}
	return "interrupted: " + e.Cause.Error()
}

// Unwrap gives the cause, so the caller can tell which signal stopped the run.
func (e InterruptedError) Unwrap() error { return e.Cause }

// AbortedError says the run stopped at Config.MaxFailures, after every output was written.
// Failed is the run's real count of requests without a response: the requests in flight when
// the threshold was reached end too, and may fail, so it can exceed Threshold.
type AbortedError struct{ Threshold, Failed int64 }

// Error says how many requests got no response.
func (e AbortedError) Error() string {
	return fmt.Sprintf("aborted: %d requests got no response (at most %d allowed)", e.Failed, e.Threshold)
}

// AccountingError says the result failed its own accounting check: a bug in webload. The
// outputs were written, but are suspect.
type AccountingError struct{ Err error }

// Error says which figures do not add up.
func (e AccountingError) Error() string { return "accounting: " + e.Err.Error() }

// Unwrap gives the failed check.
func (e AccountingError) Unwrap() error { return e.Err }
