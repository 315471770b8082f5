package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// onTerminal runs webload with args on a pseudo-terminal cols wide, with env added to the
// environment (an inherited COLUMNS, NO_COLOR or TERM left out: the terminal sets them), and
// returns what it printed, line ends as "\n", and how it exited. It skips the test where no
// pseudo-terminal can be had.
func onTerminal(t *testing.T, cols uint16, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = []string{"WEBLOAD_TEST_MAIN=1", "TERM=xterm"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "COLUMNS=") && !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "TERM=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: cols})
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
	defer tty.Close()
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&out, tty); close(copied) }() // ends with EIO once the process is gone
	err = cmd.Wait()
	// What the process wrote last may still be in the terminal: closing it now would lose it,
	// so the copy is let drain to its EIO first (bounded, should something else hold it).
	select {
	case <-copied:
	case <-time.After(10 * time.Second):
	}
	tty.Close()
	<-copied
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), err
}
