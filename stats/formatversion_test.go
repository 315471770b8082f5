package stats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// versionKey is the line a result's format version is written on, after siege's twelve keys.
const versionKey = "  \"shortest_transaction\": "

// withFormatVersion gives a result saved before format_version as this build writes it: with
// the key, FormatVersion, after siege's keys.
func withFormatVersion(t testing.TB, saved []byte) []byte {
	t.Helper()
	return setFormatVersion(t, saved, fmt.Sprint(FormatVersion))
}

// setFormatVersion puts "format_version": v into a result saved without one.
func setFormatVersion(t testing.TB, saved []byte, v string) []byte {
	t.Helper()
	i := bytes.Index(saved, []byte(versionKey))
	if i < 0 || bytes.Contains(saved, []byte(`"format_version"`)) {
		t.Fatal("not a result saved before format_version")
	}
	end := i + bytes.IndexByte(saved[i:], '\n') + 1
	return bytes.Join([][]byte{saved[:end], []byte(`  "format_version": ` + v + ",\n"), saved[end:]}, nil)
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
		{"newer", setFormatVersion(t, saved, next), true},
		{"newer with a changed type", bytes.Replace(setFormatVersion(t, saved, next),
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
