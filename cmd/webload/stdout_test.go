package main

import (
	"bytes"
	"errors"
	"fmt"
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
	stderr, code := runClosedStdout(t, "-c", "1", "-r", "2", "-o", jsonFile, "-l", logFile, site.url)
	if code != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	for _, f := range []string{jsonFile, logFile} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	if strings.Contains(stderr, "broken pipe") {
		t.Errorf("a closed stdout was reported as an error:\n%s", stderr)
	}
	if got := site.hits.Load(); got != 2 {
		t.Errorf("the site got %d requests, want 2", got)
	}
}

// runClosedStdout runs webload as a process whose stdout is a pipe the reader closed before
// webload wrote anything, as `webload ... | head -0` does, and returns its stderr and exit code.
func runClosedStdout(t *testing.T, args ...string) (stderr string, code int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &errb
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
	var exit *exec.ExitError
	switch {
	case err == nil:
		return errb.String(), 0
	case errors.As(err, &exit):
		return errb.String(), exit.ExitCode()
	default:
		t.Fatal(err)
		return "", 0
	}
}

// The tools that print to stdout treat a reader that has gone like the run does: no error,
// and the files asked for are written all the same.
func TestClosedStdoutIsNoErrorForTheTools(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	site := newCounter(t, 0, 200)
	old := savedSeries(t, dir, "old", 1, 20*time.Millisecond)
	same := savedSeries(t, dir, "same", 2, 20*time.Millisecond)
	var shards []string
	for i := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		_, stderr, code := webload(t, nil, "-q", "--no-parser", "-c", "2", "-r", "3", "--shard", fmt.Sprintf("%d/2", i), "-o", out, site.URL+"/")
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, out)
	}
	junit, merged := filepath.Join(dir, "verdict.xml"), filepath.Join(dir, "total.json")
	tests := []struct {
		name  string
		args  []string
		files []string
	}{
		{"urls import", []string{"urls", "import", "--base", "http://127.0.0.1:8080", accessLog(t, dir)}, nil},
		{"compare", []string{"compare", "--max-regression", "p95=15%", "--junit", junit, old, same}, []string{junit}},
		{"compare markdown", []string{"compare", "--format", "md", old, same}, nil},
		{"compare json", []string{"compare", "--format", "json", old, same}, nil},
		{"merge", append([]string{"merge", "-o", merged}, shards...), []string{merged}},
		{"merge json", append([]string{"merge", "-j"}, shards...), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stderr, code := runClosedStdout(t, tc.args...)
			if code != 0 || strings.Contains(stderr, "broken pipe") {
				t.Errorf("exit %d, want 0 and no error; stderr:\n%s", code, stderr)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("not written: %v", err)
				}
			}
		})
	}
}
