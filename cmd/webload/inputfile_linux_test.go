//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNamedInputsMustBeRegularFiles: every file webload reads is refused at once, in one line
// that names it, when it is a device or a FIFO: /dev/zero used to end in an out-of-memory crash
// and a FIFO without a writer used to block webload forever.
func TestNamedInputsMustBeRegularFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	history := filepath.Join(dir, "history")
	if err := os.Mkdir(history, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"1.json", "2.json", "3.json"} {
		if err := syscall.Mkfifo(filepath.Join(history, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const site = "http://127.0.0.1:1/"
	tests := []struct {
		name string
		args []string
		file string // the file the error must name
	}{
		{"compare /dev/zero", []string{"compare", "/dev/zero", fifo}, "/dev/zero"},
		{"compare a FIFO", []string{"compare", fifo, "/dev/zero"}, fifo},
		{"compare --history of FIFOs", []string{"compare", "--history", history}, history},
		{"merge /dev/zero", []string{"merge", "/dev/zero"}, "/dev/zero"},
		{"report /dev/zero", []string{"report", "--html", filepath.Join(dir, "r.html"), "/dev/zero"}, "/dev/zero"},
		{"--data /dev/zero", []string{"--data", "/dev/zero", "-r", "1", site}, "/dev/zero"},
		{"--data FIFO", []string{"--data", fifo, "-r", "1", site}, fifo},
		{"-f FIFO", []string{"-f", fifo, "-r", "1"}, fifo},
		{"-f /dev/zero", []string{"-f", "/dev/zero", "-r", "1"}, "/dev/zero"},
		{"--login-file FIFO", []string{"--login-file", fifo, "-r", "1", site}, fifo},
		{"--header-file FIFO", []string{"--header-file", fifo, "-r", "1", site}, fifo},
		{"--rc FIFO", []string{"--rc", fifo, "-r", "1", site}, fifo},
		{"--cacert FIFO", []string{"--cacert", fifo, "-r", "1", "https://127.0.0.1:1/"}, fifo},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webloadProcess(t, nil, tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if strings.Contains(stderr, "goroutine ") || !strings.Contains(stderr, tc.file) ||
				!strings.Contains(stderr, "not a regular file") {
				t.Errorf("stderr %q, want an error naming %s as not a regular file", stderr, tc.file)
			}
		})
	}
}
