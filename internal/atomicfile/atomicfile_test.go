package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// devNull is the device number of /dev/null (major 1, minor 3) in Linux's encoding.
const devNull = 1<<8 | 3

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

// Run as root, a write over /dev/null once turned the system's /dev/null into a regular file.
// A private node with the same numbers shows the device is written, not replaced.
func TestWriteToADeviceLeavesTheDevice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "null")
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, devNull); err != nil {
		t.Skipf("cannot make a device node (needs root): %v", err)
	}
	if f, err := os.OpenFile(path, os.O_WRONLY, 0); err != nil {
		t.Skipf("cannot open a device node here (a nodev mount?): %v", err)
	} else {
		f.Close()
	}
	if err := Write(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v, want the character device", path, info.Mode())
	}
	if st := info.Sys().(*syscall.Stat_t); st.Rdev != devNull {
		t.Errorf("device number %#x, want %#x", st.Rdev, devNull)
	}
	wantNoTemporaryFiles(t, dir)
}

// A FIFO (a shell's process substitution, say) is written to its reader, not replaced.
func TestWriteToAFIFOFeedsItsReader(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	read := make(chan string, 1)
	go func() {
		// Opening blocks until the writer opens too; an unblocked error ends the test below.
		f, err := os.Open(path)
		if err != nil {
			read <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		read <- string(b)
	}()
	if err := Write(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := <-read; got != "new" {
		t.Errorf("reader got %q, want %q", got, "new")
	}
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is now %v, want the FIFO", path, info.Mode())
	}
}

// A file given to another user and group keeps them when root replaces it.
func TestWriteKeepsTheOwner(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	const uid, gid = 12345, 23456
	path := filepath.Join(t.TempDir(), "out.json")
	writeFile(t, path, 0o664)
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st := info.Sys().(*syscall.Stat_t); st.Uid != uid || st.Gid != gid {
		t.Errorf("owner %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
	}
	wantMode(t, path, 0o664)
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
