package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Each check says what is wrong with an output's path in words that name the folder or file at
// fault, accepts what the write would manage, and leaves the folder as it found it.
func TestChecksSayWhyAnOutputCannotBeWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	tests := []struct {
		name  string
		check func(string) error
		path  string
		want  string // the error, "" for none
	}{
		{"write: a new file", CheckWrite, filepath.Join(dir, "new.json"), ""},
		{"write: an existing file", CheckWrite, file, ""},
		{"write: a missing folder", CheckWrite, filepath.Join(missing, "x.json"), "directory " + missing + " does not exist"},
		{"write: a file for a folder", CheckWrite, filepath.Join(file, "x.json"), file + " is not a directory"},
		{"write: a folder for a file", CheckWrite, sub, sub + " is a directory"},
		{"append: a new file", CheckAppend, filepath.Join(dir, "new.log"), ""},
		{"append: an existing file", CheckAppend, file, ""},
		{"append: a missing folder", CheckAppend, filepath.Join(missing, "x.log"), "directory " + missing + " does not exist"},
		{"append: a folder for a file", CheckAppend, sub, sub + " is a directory"},
		{"dir: an existing folder", CheckDir, sub, ""},
		{"dir: missing folders are made", CheckDir, filepath.Join(missing, "a", "b"), ""},
		{"dir: under a file", CheckDir, filepath.Join(file, "history"), file + " is not a directory"},
		{"dir: a file", CheckDir, file, file + " is not a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check(tc.path)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s: %v, want no error", tc.path, err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
			}
		})
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "old" {
		t.Errorf("the existing file holds %q (%v), want it untouched", got, err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a check made %s (%v)", missing, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("the folder holds %d entries after the checks, want the 2 it had", len(entries))
	}
	wantNoTemporaryFiles(t, dir)
}

// A folder that takes no new files (read-only for this user) is refused, by every check.
func TestChecksRefuseAFolderWithoutWriteAccess(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 || runtime.GOOS == "windows" {
		t.Skip("root writes into read-only folders, and Windows ignores a folder's mode")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	for name, check := range map[string]func(string) error{
		"write":  func(d string) error { return CheckWrite(filepath.Join(d, "x.json")) },
		"append": func(d string) error { return CheckAppend(filepath.Join(d, "x.log")) },
		"dir":    func(d string) error { return CheckDir(filepath.Join(d, "history")) },
	} {
		want := "cannot create files in directory " + dir + ": permission denied"
		if err := check(dir); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
