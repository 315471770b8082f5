//go:build unix

package main

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Every file output goes through one writer that leaves a device a device and a symlink a
// symlink: `--html /dev/null` run as root once replaced the system's /dev/null with a file.
// A private node with /dev/null's numbers stands in for it.
func TestOutputsLeaveDevicesAndSymlinksInPlace(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, http.StatusOK)
	dir := t.TempDir()
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("cannot make a device node (needs root): %v", err)
	}
	if f, err := os.OpenFile(null, os.O_WRONLY, 0); err != nil {
		t.Skipf("cannot open a device node here (a nodev mount?): %v", err)
	} else {
		f.Close()
	}
	real := filepath.Join(dir, "kept.json")
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("kept.json", link); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := webload(t, nil, "-q", "-c", "1", "-r", "2", "--html", null, "--hdr-log", null,
		"-o", link, site.URL+"/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if info, err := os.Lstat(null); err != nil || info.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("the device node is now %v (%v)", info.Mode(), err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the symlink is now %v (%v)", info.Mode(), err)
	}
	info, err := os.Stat(real)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 || info.Size() < 100 {
		t.Errorf("the link's target has mode %v and %d bytes; want the result, mode 0600", info.Mode(), info.Size())
	}
}
