package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesRegularFilesAndKeepsWhatThePathIs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup makes what is at path before the write; it returns the file whose contents
		// should then be the data.
		setup func(t *testing.T, dir, path string) (written string)
		check func(t *testing.T, path string)
	}{
		{
			name:  "a new file",
			setup: func(t *testing.T, dir, path string) string { return path },
			check: func(t *testing.T, path string) { wantMode(t, path, 0o644) },
		},
		{
			name: "an existing file keeps its mode",
			setup: func(t *testing.T, dir, path string) string {
				writeFile(t, path, 0o640)
				return path
			},
			check: func(t *testing.T, path string) { wantMode(t, path, 0o640) },
		},
		{
			name: "a symlink stays a link to the new contents",
			setup: func(t *testing.T, dir, path string) string {
				target := filepath.Join(dir, "real.json")
				writeFile(t, target, 0o600)
				symlink(t, "real.json", path)
				return target
			},
			check: func(t *testing.T, path string) {
				wantSymlink(t, path)
				wantMode(t, filepath.Join(filepath.Dir(path), "real.json"), 0o600)
			},
		},
		{
			name: "a chain of symlinks into another folder",
			setup: func(t *testing.T, dir, path string) string {
				sub := filepath.Join(dir, "sub")
				if err := os.Mkdir(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				target := filepath.Join(sub, "real.json")
				writeFile(t, target, 0o644)
				symlink(t, "sub/middle", path)
				symlink(t, "real.json", filepath.Join(sub, "middle"))
				return target
			},
			check: func(t *testing.T, path string) {
				wantSymlink(t, path)
				wantSymlink(t, filepath.Join(filepath.Dir(path), "sub", "middle"))
				wantNoTemporaryFiles(t, filepath.Join(filepath.Dir(path), "sub"))
			},
		},
		{
			name: "a dangling symlink gets its target created",
			setup: func(t *testing.T, dir, path string) string {
				symlink(t, "later.json", path)
				return filepath.Join(dir, "later.json")
			},
			check: func(t *testing.T, path string) { wantSymlink(t, path) },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "out.json")
			written := tc.setup(t, dir, path)
			if err := Write(path, []byte("new")); err != nil {
				t.Fatal(err)
			}
			if got, err := os.ReadFile(written); err != nil || string(got) != "new" {
				t.Errorf("%s holds %q (%v), want %q", written, got, err, "new")
			}
			tc.check(t, path)
			wantNoTemporaryFiles(t, dir)
		})
	}
}

func TestWriteStopsAtASymlinkLoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "a")
	symlink(t, "b", path)
	symlink(t, "a", filepath.Join(dir, "b"))
	if err := Write(path, []byte("new")); err == nil {
		t.Fatal("a loop of symlinks was written through")
	}
}

func writeFile(t *testing.T, path string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("old contents"), mode); err != nil {
		t.Fatal(err)
	}
	// WriteFile's mode passes through the umask; the test wants it exact.
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode(); got != want {
		t.Errorf("%s has mode %v, want %v", path, got, want)
	}
}

func wantSymlink(t *testing.T, path string) {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("%s is now %v, want a symlink", path, info.Mode())
	}
}

func wantNoTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	tmps, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tmps) != 0 {
		t.Errorf("temporary files left behind: %v", tmps)
	}
}

// A write that fails part way leaves a replaced file as it was and no temporary file behind; one
// that succeeds puts what it wrote.
func TestWriteFuncKeepsTheOldFileWhenTheWriteFails(t *testing.T) {
	t.Parallel()
	failure := errors.New("disk full")
	tests := []struct {
		name    string
		write   func(io.Writer) error
		wantErr error
		want    string
	}{
		{"succeeds", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, nil, "new"},
		{"fails part way", func(w io.Writer) error { _, _ = io.WriteString(w, "ne"); return failure }, failure, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "result.json")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := WriteFunc(path, tt.write); !errors.Is(err, tt.wantErr) {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("file holds %q, want %q", got, tt.want)
			}
			wantNoTemporaryFiles(t, dir)
		})
	}
}
