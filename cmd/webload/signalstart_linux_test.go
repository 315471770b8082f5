package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestSignalBeforeTheRunEndsWebload: a stop signal while webload still reads its URL list from
// a standard input that never ends ends webload at once; it used to wait for the list forever.
func TestSignalBeforeTheRunEndsWebload(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		sig      syscall.Signal
		wantCode int
	}{
		{"Ctrl-C", syscall.SIGINT, 130},
		{"SIGTERM", syscall.SIGTERM, 143},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cmd := exec.Command(os.Args[0], "-f", "-", "-r", "1")
			cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
			cmd.Stdin = r
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r.Close()
			// Once webload has read this line it is past its signal set-up and waits for more.
			if _, err := w.WriteString("# more URLs to come\n"); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for unread(t, w) > 0 {
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					t.Fatal("webload did not read its standard input")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err = waitExit(t, cmd, &stderr, "webload still waited for its URL list 30 s after the signal")
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.wantCode {
				t.Fatalf("exit = %v, want code %d; stderr:\n%s", err, tc.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String(), "before the run started") || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("stderr %q, want one line saying the run had not started", stderr.String())
			}
		})
	}
}

// unread is how many bytes written to a pipe its reader has not read yet.
func unread(t *testing.T, w *os.File) int {
	t.Helper()
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, w.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("FIONREAD: %v", errno)
	}
	return int(n)
}
