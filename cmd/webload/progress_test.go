package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// progressMark matches the live line from its first frame (" 120 req  0 failed", the rate
// added once a whole second has been measured, which a busy machine may not reach before the
// run ends) and never a report.
var progressMark = regexp.MustCompile(` [0-9]+ req  `)

func TestProgressOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	args := []string{"--rate", "200", "-t", "2S", site.URL + "/p"}

	t.Run("terminal", func(t *testing.T) {
		t.Parallel()
		text, err := onTerminal(t, 140, []string{"NO_COLOR=1"}, args...)
		if err != nil {
			t.Fatalf("webload on a terminal: %v\n%s", err, text)
		}
		if !progressMark.MatchString(text) || !strings.Contains(text, "0 failed") {
			t.Errorf("no progress line on the terminal:\n%s", text)
		}
		if strings.Contains(text, "\x1b[31m") {
			t.Error("colour despite NO_COLOR")
		}
		if !strings.Contains(text, "Transactions:") {
			t.Errorf("no report after the progress line:\n%s", text)
		}
	})
	t.Run("pipe", func(t *testing.T) {
		t.Parallel()
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1", "TERM=xterm")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("webload on a pipe: %v\n%s", err, stderr.String())
		}
		if progressMark.MatchString(stderr.String() + stdout.String()) {
			t.Errorf("progress line on a pipe:\n%s", stderr.String())
		}
	})
}
