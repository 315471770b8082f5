//go:build unix

package urls

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO or device named as a body would block the parse forever (opening a FIFO waits for a
// writer); only regular files are sent, whether named by a relative or an absolute path.
func TestBodyFileMustBeARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, line string }{
		{"relative fifo", "http://h/ POST <fifo"},
		{"absolute fifo", "http://h/ POST <" + fifo},
		{"directory", "http://h/ POST <sub"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			done := make(chan error, 1)
			go func() {
				_, err := Parse(strings.NewReader(tc.line+"\n"), "urls.txt", dir, Options{AllowAbsoluteBodies: true})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.HasPrefix(err.Error(), "urls.txt:1: ") || !strings.Contains(err.Error(), "not a regular file") {
					t.Errorf("err = %v, want a urls.txt:1 error saying it is not a regular file", err)
				}
			case <-time.After(time.Minute):
				// Unblock the parse so the test binary can end, then report the hang.
				if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatal("the parse still waits on the FIFO after a minute")
			}
		})
	}
}
