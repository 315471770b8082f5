package stats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/resulttest"
)

// withFormatVersion gives a result saved before format_version as this build writes it.
func withFormatVersion(t testing.TB, saved []byte) []byte {
	return resulttest.SetFormatVersion(t, saved, fmt.Sprint(FormatVersion))
}

// TestFormatVersionWritten: a result is written with this build's format version at its top
// level alone, whatever version it was read as, and reads back as that version.
func TestFormatVersionWritten(t *testing.T) {
	t.Parallel()
	rep := loadSaved(t, "repeat") // saved before format_version: read as 0
	if rep.FormatVersion != 0 {
		t.Fatalf("a result saved without format_version reads as version %d, want 0", rep.FormatVersion)
	}
	rep.Repeats[0].FormatVersion = FormatVersion // as if a saved result became a run of a series
	path := filepath.Join(t.TempDir(), "r.json")
	if err := SaveJSON(path, &rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte(`"format_version"`)); n != 1 {
		t.Errorf("format_version written %d times, want once, at the top", n)
	}
	again, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if again.FormatVersion != FormatVersion {
		t.Errorf("read back as version %d, want %d", again.FormatVersion, FormatVersion)
	}
}

// TestFormatVersionNewer: a result of a newer format is refused with one line naming the file
// and its version, also when the newer format changed a value's type; this build's version and
// none load.
func TestFormatVersionNewer(t *testing.T) {
	t.Parallel()
	saved, err := os.ReadFile(filepath.Join("testdata", "saved", "closed.json"))
	if err != nil {
		t.Fatal(err)
	}
	next := fmt.Sprint(FormatVersion + 1)
	for _, tc := range []struct {
		name  string
		data  []byte
		newer bool
	}{
		{"none", saved, false},
		{"this build's", withFormatVersion(t, saved), false},
		{"newer", resulttest.SetFormatVersion(t, saved, next), true},
		{"newer with a changed type", bytes.Replace(resulttest.SetFormatVersion(t, saved, next),
			[]byte(`"transactions": 24,`), []byte(`"transactions": {"ok": 24},`), 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "result.json")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadJSON(path)
			if !tc.newer {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrNewerFormat) {
				t.Fatalf("error %v, want ErrNewerFormat", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, "format_version "+next) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line naming %s and format_version %s", msg, path, next)
			}
		})
	}
}

// TestFormatVersionNegative: a negative format_version is no format any webload wrote (a
// corrupt or hand-made file), refused in one line naming the file, not read as the oldest.
func TestFormatVersionNegative(t *testing.T) {
	t.Parallel()
	saved, err := os.ReadFile(filepath.Join("testdata", "saved", "closed.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "result.json")
	if err := os.WriteFile(path, resulttest.SetFormatVersion(t, saved, "-1"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadJSON(path)
	if err == nil {
		t.Fatal("a result of format_version -1 loaded")
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "format_version -1") || strings.Contains(msg, "\n") {
		t.Errorf("error %q, want one line naming %s and format_version -1", msg, path)
	}
}
