package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webload/webload/internal/capsite"
)

func startCapsite(t *testing.T, cfg capsite.Config) *capsite.Site {
	t.Helper()
	site, err := capsite.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { site.Close() })
	return site
}

// savedCapacity is the part of a saved search the tests read.
type savedCapacity struct {
	Transactions int64 `json:"transactions"`
	Run          struct {
		Rate float64 `json:"rate"`
	} `json:"run"`
	Capacity *struct {
		Rate  float64  `json:"rate"`
		SLO   []string `json:"slo"`
		Steps []struct {
			Rate      float64 `json:"rate"`
			P95       float64 `json:"p95"`
			ErrorRate float64 `json:"error_rate"`
			Passed    bool    `json:"passed"`
		} `json:"steps"`
	} `json:"capacity"`
}

// A site of 4 workers of 40 ms holds 100 req/s; the search must land within 10 % of it, and
// the saved result is the step at that rate with the search attached. It does not run in
// parallel: the site shares the client's process, and on a machine short of CPU, tests beside
// it would delay the site's workers and lower the capacity it has. The rate is kept low and the
// service time long for the same reason: under the race detector, with every package's tests
// on two cores, a few milliseconds of scheduling delay are a tenth of a 20 ms service time (a
// 400 req/s site measured 312 req/s then), and a twentieth of 40 ms.
func TestCapacityFindsAKnownCapacity(t *testing.T) {
	site := startCapsite(t, capsite.Config{Workers: 4, Service: 40 * time.Millisecond})
	out := filepath.Join(t.TempDir(), "cap.json")
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "p95<100ms", "--step-time", "2s", "--settle", "1s",
		"--from", "25", "--max-steps", "12", "--no-parser", "-o", out, site.URL())
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var saved savedCapacity
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	c := saved.Capacity
	if c == nil {
		t.Fatalf("no capacity in the saved result\n%s", stdout)
	}
	t.Logf("found %v req/s\n%s", c.Rate, stdout)
	if c.Rate < 90 || c.Rate > 110 {
		t.Fatalf("capacity %v req/s, want within 10 %% of 100\n%s", c.Rate, stdout)
	}
	if saved.Run.Rate != c.Rate || saved.Transactions == 0 || len(c.SLO) != 1 || c.SLO[0] != "p95<100ms" {
		t.Fatalf("saved step at %v req/s with %d transactions, SLO %v; want the step at %v", saved.Run.Rate, saved.Transactions, c.SLO, c.Rate)
	}
	if len(c.Steps) > 12 || strings.Count(stdout, " req/s: ") != len(c.Steps) {
		t.Fatalf("%d steps saved, printed:\n%s", len(c.Steps), stdout)
	}
	if !strings.Contains(stdout, "Capacity: ") || !strings.Contains(stdout, "next step ") {
		t.Fatalf("no capacity line:\n%s", stdout)
	}
}

// A site that takes 200 ms a request never keeps p95<50ms: the search halves from 4 req/s down
// to 1, says so and exits 1, as a failed gate does.
func TestCapacityNoneFound(t *testing.T) {
	t.Parallel()
	site := startCapsite(t, capsite.Config{Workers: 4, Service: 200 * time.Millisecond})
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "p95<50ms", "--step-time", "1s", "--settle", "0",
		"--from", "4", "--no-parser", site.URL())
	if code != exitGateFailed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitGateFailed, stdout, stderr)
	}
	if strings.Count(stdout, " req/s: ") != 3 || !strings.Contains(stdout, "Capacity: none found: even 1 req/s failed (p95 2") {
		t.Fatalf("stdout:\n%s", stdout)
	}
	if !strings.Contains(stderr, "none found") {
		t.Fatalf("stderr: %s", stderr)
	}
}

func TestCapacityUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no slo", nil, "--slo: name at least one gate"},
		{"bad slo", []string{"--slo", "p96<1s"}, "unknown metric"},
		{"users", []string{"--slo", "p95<1s", "-c", "10"}, "--concurrent does not apply"},
		{"time", []string{"--slo", "p95<1s", "-t", "10S"}, "--time does not apply"},
		{"to below from", []string{"--slo", "p95<1s", "--from", "100", "--to", "50"}, "--to 50 is below --from 100"},
		{"step time", []string{"--slo", "p95<1s", "--step-time", "0"}, "--step-time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"capacity"}, tc.args...)
			_, stderr, code := webload(t, nil, append(args, "http://127.0.0.1:1/")...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}

// Two stacks searched the same way compare side by side, capacity first, and a stack that
// holds half as much fails --max-regression capacity=10%.
func TestCapacityCompare(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	search := func(workers int, out string) {
		site := startCapsite(t, capsite.Config{Workers: workers, Service: 20 * time.Millisecond})
		stdout, stderr, code := webload(t, nil, "capacity", "--slo", "p95<100ms", "--step-time", "1s", "--settle", "500ms",
			"--from", "100", "--max-steps", "4", "--no-parser", "--label", out, "-o", filepath.Join(dir, out+".json"), site.URL())
		if code != 0 {
			t.Errorf("%s: exit %d\n%s%s", out, code, stdout, stderr)
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); search(1, "small") }() // 50 req/s
	search(8, "large")                                    // 400 req/s
	<-done
	if t.Failed() {
		return
	}
	stdout, stderr, code := webload(t, nil, "compare", "--max-regression", "capacity=10%",
		filepath.Join(dir, "large.json"), filepath.Join(dir, "small.json"))
	if code != exitGateFailed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitGateFailed, stdout, stderr)
	}
	head := strings.SplitN(stdout, "\n", 2)[0]
	if !strings.HasPrefix(head, "Run    Capacity (req/s)") || !strings.Contains(stdout, "small Capacity ") || !strings.Contains(stdout, "FAILED") {
		t.Fatalf("compare:\n%s", stdout)
	}
}

// Ctrl-C ends the search in its step: the steps measured are printed and saved, and the exit
// is the signal's, as a run's.
func TestCapacityInterrupted(t *testing.T) {
	t.Parallel()
	site := startCapsite(t, capsite.Config{Workers: 8, Service: 20 * time.Millisecond})
	out := filepath.Join(t.TempDir(), "cap.json")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	time.AfterFunc(2500*time.Millisecond, func() { cancel(signalCause{syscall.SIGINT}) })
	var stdout, stderr bytes.Buffer
	err := runApp(ctx, []string{"webload", "capacity", "--slo", "p95<5s", "--step-time", "1s", "--settle", "0",
		"--from", "20", "--max-steps", "20", "--no-parser", "-o", out, site.URL()}, &stdout, &stderr,
		func(string) (string, bool) { return "", false })
	// 20 and 40 req/s take a second each; the signal cuts 80.
	if code := exitCode(err, &stderr); code != 130 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if n := strings.Count(stdout.String(), " req/s: "); n < 1 || !strings.Contains(stdout.String(), "Capacity: ") {
		t.Fatalf("%d steps printed:\n%s", n, stdout.String())
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(data), `"capacity"`) {
		t.Fatalf("saved %v: %.200s", err, data)
	}
}

// With --prometheus-listen, the metrics page names the rate being measured: the site scrapes
// it while it answers, and sees each step's rate in turn.
func TestCapacityShowsItsStep(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var mu sync.Mutex
	seen := map[string]bool{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if resp, err := http.Get("http://" + addr + "/metrics"); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			for _, line := range strings.Split(string(body), "\n") {
				if strings.HasPrefix(line, "webload_step ") {
					mu.Lock()
					seen[line] = true
					mu.Unlock()
				}
			}
		}
		w.Write([]byte("ok\n"))
	}))
	t.Cleanup(site.Close)
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "p95<5s", "--step-time", "500ms", "--settle", "0",
		"--from", "20", "--max-steps", "2", "--no-parser", "--prometheus-listen", addr, site.URL+"/")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if !seen["webload_step 20"] || !seen["webload_step 40"] || len(seen) != 2 {
		t.Errorf("steps seen while answering: %v; want webload_step 20 and 40", seen)
	}
}
