package stats

import (
	"encoding/json"
	"fmt"
)

// FormatVersion is the version of the saved result's format (the JSON -o writes) that this
// build writes and the newest it reads. Results saved before results carried a version read as
// version 0, the same format without the key. It goes up only when an older webload would
// misread a result of the new format: a key removed or renamed, or a value whose meaning or unit
// changed. A new key does not raise it (readers skip keys they do not know), and a result
// validates against the schema (Schema) of the webload that wrote it and of every later one.
const FormatVersion = 1

// ErrNewerFormat says a result was written by a newer webload, in a format this one may misread.
var ErrNewerFormat = fmt.Errorf("newer than this webload reads (format_version %d)", FormatVersion)

// checkFormat refuses a result of a format newer than this build's, and one whose version no
// webload wrote.
func (r *Report) checkFormat() error {
	if r.FormatVersion < 0 {
		return fmt.Errorf("format_version %d is no version of the format: versions count up from 1", r.FormatVersion)
	}
	if r.FormatVersion > FormatVersion {
		return fmt.Errorf("format_version %d is %w: read it with a newer webload", r.FormatVersion, ErrNewerFormat)
	}
	return nil
}

// newerFormat is checkFormat for a result that may not have decoded: a newer format can change
// a value's type, and its version is then the one thing worth saying. decodeErr is what decoding
// data into r gave.
func newerFormat(data []byte, r *Report, decodeErr error) error {
	if decodeErr == nil {
		return r.checkFormat()
	}
	var head struct {
		FormatVersion int `json:"format_version"`
	}
	if json.Unmarshal(data, &head) != nil { // not even the version reads: the decode error says why
		return nil
	}
	return (&Report{FormatVersion: head.FormatVersion}).checkFormat()
}

// versionAt is the format version written at a report's indent: a file's version is its top
// level's, not that of the runs and steps it holds.
func versionAt(prefix string) int {
	if prefix == "" {
		return FormatVersion
	}
	return 0
}
