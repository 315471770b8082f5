//go:build unix

package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// devNull is the device number of /dev/null (major 1, minor 3) in Linux's encoding.
const devNull = 1<<8 | 3

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
