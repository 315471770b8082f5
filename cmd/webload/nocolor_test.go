package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/webload/webload/internal/testtier"
)

// TestColourOnlyOnATerminalWithoutNoColor: the progress line shows its failures in red on a
// terminal; NO_COLOR (https://no-color.org) turns that off, and off a terminal nothing
// webload prints has an escape sequence.
func TestColourOnlyOnATerminalWithoutNoColor(t *testing.T) {
	testtier.Slow(t)
	t.Parallel()
	site := newCounter(t, 0, 200)
	// Every response fails its check, so the progress line has failures to colour.
	args := []string{"--rate", "100", "-t", "2S", "--check", "status==201", site.URL + "/p"}
	const red = "\x1b[31m"
	for _, tc := range []struct {
		name    string
		env     []string
		wantRed bool
	}{
		{"terminal", nil, true},
		{"terminal with NO_COLOR", []string{"NO_COLOR=1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, _ := onTerminal(t, 120, tc.env, args...) // the failed checks may fail the run
			if !progressMark.MatchString(out) {
				t.Fatalf("no progress line on the terminal:\n%q", out)
			}
			if got := strings.Contains(out, red); got != tc.wantRed {
				t.Errorf("red on the terminal: %v, want %v:\n%q", got, tc.wantRed, out)
			}
		})
	}
	t.Run("pipe", func(t *testing.T) {
		t.Parallel()
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1", "TERM=xterm")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run() // the failed checks may fail the run; what it printed is the point
		if !strings.Contains(stdout.String(), "Transactions:") {
			t.Fatalf("no report on the pipe:\n%s%s", stdout.String(), stderr.String())
		}
		if out := stdout.String() + stderr.String(); strings.Contains(out, "\x1b") {
			t.Errorf("an escape sequence on a pipe:\n%q", out)
		}
	})
}
