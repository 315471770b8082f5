package main

import (
	"bufio"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// A run with no end of its own says so once as it starts, even under -q, and still runs until
// interrupted: here by Ctrl-C, sent once the line is out, after which it reports as always.
func TestUnboundedRunSaysItRunsUntilInterrupted(t *testing.T) {
	t.Parallel()
	site := slowSite(t)
	cmd := exec.Command(os.Args[0], "-q", "-c", "1", "--timeout", "5", site.url)
	cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var stderr []string
	hang := time.After(30 * time.Second)
	for !slices.Contains(stderr, unboundedNote) {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("webload ended before saying it runs until interrupted; stderr %q", stderr)
			}
			stderr = append(stderr, line)
		case <-hang:
			_ = cmd.Process.Kill()
			t.Fatalf("no line that the run goes on until interrupted after 30 s; stderr %q", stderr)
		}
	}
	site.waitForHits(t, 1) // the run goes on after the line
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		select {
		case line, ok := <-lines:
			done = !ok
			if ok {
				stderr = append(stderr, line)
			}
		case <-hang:
			_ = cmd.Process.Kill()
			t.Fatalf("webload did not stop after Ctrl-C; stderr %q", stderr)
		}
	}
	var exit *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit %v, want 130 (interrupted)", err)
	}
	if n := strings.Count(strings.Join(stderr, "\n"), unboundedNote); n != 1 {
		t.Errorf("the line came %d times, want once; stderr %q", n, stderr)
	}
}

// A run that ends by itself says nothing of the kind.
func TestBoundedRunsDoNotSayTheyRunUntilInterrupted(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, http.StatusOK)
	tests := []struct {
		name string
		args []string
	}{
		{"-r", []string{"-c", "1", "-r", "2"}},
		{"-r once", []string{"-c", "1", "-r", "once"}},
		{"-t", []string{"-c", "1", "-t", "1S"}},
		{"--rate with a total", []string{"--rate", "50", "-r", "3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, append(tc.args, site.URL+"/")...)
			if code != exitOK || strings.Contains(stderr, "until interrupted") {
				t.Errorf("exit %d, stderr %q; want 0 and no word of running until interrupted", code, stderr)
			}
		})
	}
}
