package urls

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A URL file may send files from its own folder; a relative path must not lead out of it, and
// an absolute path is refused unless the user allows absolute bodies, so a URL file from
// elsewhere cannot make webload send /etc/shadow.
func TestBodyFilesStayInTheURLFilesFolder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "suite")
	if err := os.MkdirAll(filepath.Join(dir, "bodies"), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, "secret.txt")
	for path, data := range map[string]string{
		secret:                                 "top secret",
		filepath.Join(dir, "bodies", "a.json"): `{"a":1}`,
	} {
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		line    string
		allow   bool
		body    string
		wantErr string
	}{
		{"inside the folder", "http://h/ POST <bodies/a.json", false, `{"a":1}`, ""},
		{"inside the folder, absolute allowed", "http://h/ POST <bodies/a.json", true, `{"a":1}`, ""},
		{"absolute path allowed", "http://h/ POST <" + secret, true, "top secret", ""},
		{"absolute path refused", "http://h/ POST <" + secret, false, "", "absolute path refused in a URL file (--allow-absolute-bodies allows it)"},
		{"dot-dot out of the folder", "http://h/ POST <../secret.txt", true, "", "path escapes from parent"},
		{"symlink out of the folder", "http://h/ POST <link.txt", true, "", "path escapes from parent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(tc.line+"\n"), "urls.txt", dir, Options{AllowAbsoluteBodies: tc.allow})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), "urls.txt:1: ") {
					t.Errorf("err = %v, want a urls.txt:1 error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got[0].Body) != tc.body {
				t.Errorf("body %q, want %q", got[0].Body, tc.body)
			}
		})
	}
}

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
