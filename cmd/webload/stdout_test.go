package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `webload ... -o r.json -l r.log | head -1`: once the reader has gone, writing the report to
// stdout fails with EPIPE. That must neither kill webload (Go's default for SIGPIPE on stdout)
// nor cost the files, and is no error: the reader took what it wanted.
func TestClosedStdoutStillWritesTheFiles(t *testing.T) {
	t.Parallel()
	site := slowSite(t)
	dir := t.TempDir()
	jsonFile, logFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.log")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// The reader is gone before webload writes anything.
	r.Close()
	cmd := exec.Command(os.Args[0], "-c", "1", "-r", "2", "-o", jsonFile, "-l", logFile, site.url)
	cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("webload did not end")
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Errorf("exit %v (status %v), want 0; stderr:\n%s", err, exit.Sys(), stderr.String())
		} else {
			t.Fatal(err)
		}
	}
	for _, f := range []string{jsonFile, logFile} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	if strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("a closed stdout was reported as an error:\n%s", stderr.String())
	}
	if got := site.hits.Load(); got != 2 {
		t.Errorf("the site got %d requests, want 2", got)
	}
}
