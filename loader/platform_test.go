package loader

import (
	"errors"
	"testing"
)

// What the loader cannot do on this system is said, and nothing is said where it can.
func TestPlatformNotesSayWhatIsOff(t *testing.T) {
	t.Parallel()
	_, err := fileLimit()
	off := 0
	for _, missing := range []bool{!idleCheck, errors.Is(err, ErrNoFileLimit)} {
		if missing {
			off++
		}
	}
	if got := PlatformNotes(); len(got) != off {
		t.Errorf("notes %q, want %d: idle check %v, open-files limit %v", got, off, idleCheck, err)
	}
}
