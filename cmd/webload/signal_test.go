package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for the webload command: started with
// WEBLOAD_TEST_MAIN=1 it runs main, so signal handling is tested on a real process.
func TestMain(m *testing.M) {
	if os.Getenv("WEBLOAD_TEST_MAIN") == "1" {
		os.Args = append([]string{"webload"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

func TestSignalWritesThePartialReport(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		sig      syscall.Signal
		wantCode int
	}{
		{"Ctrl-C", syscall.SIGINT, 130},
		{"SIGTERM", syscall.SIGTERM, 143},
		{"SIGHUP", syscall.SIGHUP, 129},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int64
			site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				hits.Add(1)
				time.Sleep(100 * time.Millisecond)
			}))
			t.Cleanup(site.Close)
			out, junit := filepath.Join(t.TempDir(), "partial.json"), filepath.Join(t.TempDir(), "gates.xml")
			cmd := exec.Command(os.Args[0], "-c", "4", "-t", "1H", "--timeout", "5", "-o", out,
				"--assert", "p95<10m", "--junit", junit, site.URL+"/")
			cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for hits.Load() < 8 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := waitExit(t, cmd, &stderr, "webload did not stop after the signal")
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.wantCode {
				t.Fatalf("exit = %v, want code %d; stderr:\n%s", err, tc.wantCode, stderr.String())
			}
			if !strings.Contains(stdout.String(), "Transactions:") {
				t.Errorf("no report on stdout:\n%s", stdout.String())
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("partial result not written: %v", err)
			}
			var rep struct {
				Transactions   int64 `json:"transactions"`
				InFlightAtStop int64 `json:"in_flight_at_stop"`
				Run            struct {
					StopReason string `json:"stop_reason"`
				} `json:"run"`
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			// Every request the server received was finished and counted.
			if rep.Transactions != hits.Load() || rep.Run.StopReason != "interrupted" || rep.InFlightAtStop == 0 {
				t.Errorf("saved %+v, server saw %d requests", rep, hits.Load())
			}
			// The gates were judged on what was measured, the interrupt a failed case of its own.
			gates, err := os.ReadFile(junit)
			if err != nil {
				t.Fatalf("JUnit file not written: %v", err)
			}
			want := "run ended early (interrupted by " + tc.sig.String() + ")"
			if !strings.Contains(string(gates), `<testcase name="p95&lt;10m"`) || !strings.Contains(string(gates), want) {
				t.Errorf("JUnit file without the gate and %q:\n%s", want, gates)
			}
		})
	}
}

// A second Ctrl-C after the repeat window quits at once, without waiting for requests that
// would take the whole timeout.
func TestSecondSignalQuitsAtOnce(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	release := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); site.Close() })
	cmd := exec.Command(os.Args[0], "-c", "2", "-t", "1H", "--timeout", "60", site.URL+"/")
	cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for hits.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Ctrl-C again and again, each a window apart: webload's window starts when it reads the
	// first signal, which a busy machine may delay, so the second can still fall inside it and
	// count as the first delivered twice. A later one is past it for sure.
	giveUp := time.After(20 * time.Second)
	for wait := time.Duration(0); ; wait = sameSignalWindow + 500*time.Millisecond {
		select {
		case err := <-done:
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 130 {
				t.Errorf("exit = %v, want 130", err)
			}
		case <-time.After(wait):
			_ = cmd.Process.Signal(syscall.SIGINT)
			continue
		case <-giveUp:
			// The requests in flight have a 60 s timeout: only quitting at once ends it sooner.
			_ = cmd.Process.Kill()
			t.Fatal("a second Ctrl-C did not end webload")
		}
		break
	}
	if !strings.Contains(stderr.String(), "exiting without a report") || strings.Contains(stdout.String(), "Transactions:") {
		t.Errorf("stdout %q stderr %q", stdout.String(), stderr.String())
	}
}

// timeout(1) signals webload and then its whole process group, so webload gets SIGTERM twice
// within microseconds. That is one request to stop: the report and -o must still be written.
func TestTwoSignalsAtOnceAreOneStop(t *testing.T) {
	t.Parallel()
	const runs = 5
	for i := range runs {
		t.Run(fmt.Sprintf("kill twice %d", i), func(t *testing.T) {
			t.Parallel()
			site := slowSite(t)
			out := filepath.Join(t.TempDir(), "partial.json")
			cmd := exec.Command(os.Args[0], "-c", "2", "-t", "1H", "--timeout", "5", "-o", out, site.url)
			stdout, stderr := startWebload(t, cmd)
			site.waitForHits(t, 2)
			_ = cmd.Process.Signal(syscall.SIGTERM)
			_ = cmd.Process.Signal(syscall.SIGTERM)
			wantPartialReport(t, cmd, out, 143, stdout, stderr)
		})
	}
	timeoutCmd, err := exec.LookPath("timeout")
	if err != nil {
		t.Log("no timeout command; only the double kill is tested")
		return
	}
	for i := range runs {
		t.Run(fmt.Sprintf("under timeout %d", i), func(t *testing.T) {
			t.Parallel()
			site := slowSite(t)
			out := filepath.Join(t.TempDir(), "partial.json")
			// timeout passes a SIGTERM it receives on as it does its own expiry: to webload,
			// then to the process group. Signalling it once webload is busy, rather than
			// waiting for a duration, makes sure webload is running by then.
			// --preserve-status makes timeout exit with webload's own code.
			cmd := exec.Command(timeoutCmd, "--preserve-status", "1h", os.Args[0],
				"-c", "2", "-t", "1H", "--timeout", "5", "-o", out, site.url)
			stdout, stderr := startWebload(t, cmd)
			site.waitForHits(t, 2)
			_ = cmd.Process.Signal(syscall.SIGTERM)
			wantPartialReport(t, cmd, out, 143, stdout, stderr)
		})
	}
}

// countingSite answers every request after a short pause and counts them.
type countingSite struct {
	url  string
	hits atomic.Int64
}

func slowSite(t *testing.T) *countingSite {
	t.Helper()
	s := &countingSite{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.hits.Add(1)
		time.Sleep(50 * time.Millisecond)
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/"
	return s
}

func (s *countingSite) waitForHits(t *testing.T, n int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for s.hits.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the site got %d requests, want %d", s.hits.Load(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startWebload starts cmd as the webload command (see TestMain) with its output captured.
func startWebload(t *testing.T, cmd *exec.Cmd) (stdout, stderr *bytes.Buffer) {
	t.Helper()
	cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdout, stderr
}

// wantPartialReport waits for an interrupted run to end and checks it reported and saved out.
func wantPartialReport(t *testing.T, cmd *exec.Cmd, out string, wantCode int, stdout, stderr *bytes.Buffer) {
	t.Helper()
	err := waitExit(t, cmd, stderr, "webload did not stop after the signal")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != wantCode {
		t.Errorf("exit = %v, want code %d; stderr:\n%s", err, wantCode, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Transactions:") {
		t.Errorf("no report on stdout:\n%s", stdout.String())
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("-o not written: %v", err)
	}
}

// waitExit waits for cmd, started, to end and returns what Wait said. Past a hang guard of 30 s
// it kills the process and fails the test with why and the process's stderr.
func waitExit(t *testing.T, cmd *exec.Cmd, stderr *bytes.Buffer, why string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s; stderr:\n%s", why, stderr.String())
		return nil
	}
}
