package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// webloadProcess runs the webload command as a process (see TestMain), so that a read that
// blocks or fills the memory cannot take the test binary with it; 30 s is a hang guard.
func webloadProcess(t *testing.T, stdin *os.File, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = []string{"WEBLOAD_TEST_MAIN=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SIEGERC=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err := waitExit(t, cmd, &errw, "webload "+strings.Join(args, " ")+" still ran after 30 s")
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errw.String(), code
}
