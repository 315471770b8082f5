package loader

import "errors"

// PlatformNotes says, a line each, what the loader does differently on the system it runs on
// than on Linux; nothing on Linux and macOS. The banner shows them, so that a run's figures
// are read knowing it.
func PlatformNotes() []string {
	var notes []string
	if !idleCheck {
		notes = append(notes, "kept-alive connections are not checked before reuse on this system: a GET on one the server closed while idle is resent, a POST fails as closed")
	}
	if _, err := fileLimit(); errors.Is(err, ErrNoFileLimit) {
		notes = append(notes, "no open-files limit to check or raise on this system: many users may instead run out of ports or memory")
	}
	return notes
}
