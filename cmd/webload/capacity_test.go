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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webload/webload/internal/capsite"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
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

// searchSaved runs webload capacity with args, which must exit 0, and returns its stdout and
// the search it saved with -o.
func searchSaved(t *testing.T, args ...string) (string, savedCapacity) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "cap.json")
	stdout, stderr, code := webload(t, nil, append([]string{"capacity", "-o", out}, args...)...)
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
	return stdout, saved
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

// A search over a site that falls over after 75 answers: 25 and 50 req/s pass (1 s steps send
// at most 75 requests), 100 fails and fails again when measured again, where the four steps
// allowed end the search.
// Every step has 20 requests at least, the fewest a gate is judged on (one due as a step ends
// may be left unsent on a busy machine). The verdicts follow from the count of requests sent, not from the machine's speed, so the
// test checks what the search did and saved; how close a search comes to a real site's
// capacity is measured by scripts/capacity-accuracy.sh.
func TestCapacitySearchSavesItsSteps(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := startCapsite(t, capsite.Config{Workers: 4, Service: time.Millisecond, FailAfter: 75})
	stdout, saved := searchSaved(t, "--slo", "error_rate<1", "--step-time", "1s", "--settle", "0",
		"--from", "25", "--max-steps", "4", "--no-parser", site.URL())
	c := saved.Capacity
	if c == nil {
		t.Fatalf("no capacity in the saved result\n%s", stdout)
	}
	type step struct {
		rate   float64
		passed bool
	}
	var got []step
	for _, s := range c.Steps {
		got = append(got, step{s.Rate, s.Passed})
	}
	if want := []step{{25, true}, {50, true}, {100, false}, {100, false}}; !slices.Equal(got, want) {
		t.Fatalf("steps %v, want %v\n%s", got, want, stdout)
	}
	if c.Rate != 50 || saved.Run.Rate != 50 || saved.Transactions == 0 || len(c.SLO) != 1 || c.SLO[0] != "error_rate<1" {
		t.Fatalf("capacity %v, saved step at %v req/s with %d transactions, SLO %v; want the step at 50", c.Rate, saved.Run.Rate, saved.Transactions, c.SLO)
	}
	if c.Steps[0].ErrorRate != 0 || c.Steps[2].ErrorRate == 0 {
		t.Fatalf("error rates %v and %v: want none at 25 req/s and some at 100", c.Steps[0].ErrorRate, c.Steps[2].ErrorRate)
	}
	if strings.Count(stdout, " req/s: ") != 4 || strings.Count(stdout, "(measured again)") != 1 || !strings.Contains(stdout, "Capacity: 50 req/s") ||
		!strings.Contains(stdout, "at that rate, measured once; next step 100 req/s failed twice: error_rate ") {
		t.Fatalf("want 4 step lines and the capacity line:\n%s", stdout)
	}
}

// A site that answers 503 at once to most requests keeps p95<5s on the few it serves; the
// error ceiling the search adds fails its step. The site falls over after 85 answers: 25 and
// 50 req/s (75 requests) pass, 100 req/s serves at most 10 of its 100 and fails on its errors
// (its p95, on so few, is not judged), twice.
func TestCapacityErrorCeiling(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := startCapsite(t, capsite.Config{Workers: 4, Service: time.Millisecond, FailAfter: 85})
	stdout, saved := searchSaved(t, "--slo", "p95<5s", "--step-time", "1s", "--settle", "0",
		"--from", "25", "--max-steps", "4", "--no-parser", site.URL())
	c := saved.Capacity
	if c == nil || c.Rate != 50 || !slices.Equal(c.SLO, []string{"p95<5s", "error_rate<1"}) {
		t.Fatalf("saved %+v; want a capacity of 50 judged by p95<5s and error_rate<1\n%s", c, stdout)
	}
	if s := c.Steps[2]; s.Rate != 100 || s.Passed || s.ErrorRate < 50 {
		t.Fatalf("the 100 req/s step %+v; want failed on its errors\n%s", s, stdout)
	}
	if !strings.Contains(stdout, "Capacity search for p95<5s, error_rate<1 (added: no --slo bounds the errors)") ||
		!strings.Contains(stdout, "FAILED: error_rate ") || !strings.Contains(stdout, "Capacity: 50 req/s (p95 ") ||
		!strings.Contains(stdout, " ms, errors 0.000 % at that rate") {
		t.Fatalf("stdout:\n%s", stdout)
	}
}

// p99.9 needs 1 000 transactions to mean anything, and steps of 1 s at 10 to 40 req/s have 40
// at most: no step can be judged, so the search gives no capacity and exits 4, as an
// inconclusive check does, with the reason on one line.
func TestCapacityTooFewToJudge(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := startCapsite(t, capsite.Config{Workers: 4, Service: time.Millisecond})
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "p99.9<5s", "--step-time", "1s", "--settle", "0",
		"--from", "10", "--to", "40", "--no-parser", site.URL())
	if code != exitInconclusive {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitInconclusive, stdout, stderr)
	}
	if n := strings.Count(stdout, " req/s: "); n != 3 || strings.Count(stdout, "INCONCLUSIVE: ") != 3 || strings.Contains(stdout, "passed") {
		t.Fatalf("want 3 inconclusive steps (10, 20, 40):\n%s", stdout)
	}
	if !strings.Contains(stdout, "Capacity: none found: no step could be judged (at 40 req/s, ") || !strings.Contains(stdout, "p99.9 needs 1000)") {
		t.Fatalf("stdout:\n%s", stdout)
	}
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "no step could be judged") {
		t.Fatalf("stderr: %q", stderr)
	}
}

// A site that takes 200 ms a request never keeps p95<50ms: the search measures 40 req/s twice
// and halves to 20 (steps of 1 s at lower rates hold too few transactions to judge), twice,
// where the four steps allowed end it, says none was found and exits 1, as a failed gate does.
func TestCapacityNoneFound(t *testing.T) {
	t.Parallel()
	site := startCapsite(t, capsite.Config{Workers: 4, Service: 200 * time.Millisecond})
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "p95<50ms", "--step-time", "1s", "--settle", "0",
		"--from", "40", "--max-steps", "4", "--no-parser", site.URL())
	if code != exitGateFailed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitGateFailed, stdout, stderr)
	}
	if strings.Count(stdout, " req/s: ") != 4 || !strings.Contains(stdout, "Capacity: none found: even 20 req/s failed (p95 ") {
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
		{"step too short", []string{"--slo", "p95<1s", "--step-time", "1ns"}, "--step-time: want 1s at least"},
		{"lower bound on latency", []string{"--slo", "p95>500ms"}, "p95>500ms: a heavier load raises p95"},
		{"lower bound on rtime", []string{"--slo", "rtime>=1s"}, "rtime>=1s: a heavier load raises rtime"},
		{"always true", []string{"--slo", "trate>=0"}, "trate>=0: trate grows with the load offered"},
		{"transactions", []string{"--slo", "transactions>100"}, "transactions>100: transactions grows with the load offered"},
		{"error ceiling of 100 %", []string{"--slo", "p95<1s", "--slo", "error_rate<=100"}, "error_rate<=100: every step keeps it"},
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
// holds half as much fails --max-regression capacity=10%. Each site falls over after a count
// of answers, so the capacities are 50 and 25 req/s on any machine.
func TestCapacityCompare(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	dir := t.TempDir()
	search := func(failAfter int64, out string) {
		site := startCapsite(t, capsite.Config{Workers: 4, Service: time.Millisecond, FailAfter: failAfter})
		stdout, stderr, code := webload(t, nil, "capacity", "--slo", "error_rate<1", "--step-time", "1s", "--settle", "0",
			"--from", "25", "--max-steps", "3", "--no-parser", "--label", out, "-o", filepath.Join(dir, out+".json"), site.URL())
		if code != 0 {
			t.Errorf("%s: exit %d\n%s%s", out, code, stdout, stderr)
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); search(25, "small") }() // 25 passes, 50 fails twice
	search(75, "large")                                    // 25 and 50 pass, 100 fails
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
	if !strings.HasPrefix(head, "Run    Capacity (req/s)") || !strings.Contains(stdout, "small Capacity ") ||
		!strings.Contains(stdout, "FAILED") || !strings.Contains(stdout, "-50.0%") {
		t.Fatalf("compare:\n%s", stdout)
	}
}

// --repeat N searches N times and gives the median of their capacities and their range; the
// saved result keeps every search, each under repeats with its steps. The site falls over after
// 75 answers: the first search passes 25 and 50 req/s and runs out of its 2 steps (at least 50),
// the second fails 25 twice (none): the median is at least 25 on any machine.
func TestCapacityRepeat(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := startCapsite(t, capsite.Config{Workers: 4, Service: time.Millisecond, FailAfter: 75})
	out := filepath.Join(t.TempDir(), "cap.json")
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "error_rate<1", "--step-time", "1s", "--settle", "0",
		"--from", "25", "--max-steps", "2", "--repeat", "2", "--repeat-pause", "0", "--no-parser", "-o", out, site.URL())
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	want := "Capacity: at least 25 req/s, the median of 2 searches (at least 50, none req/s; range 0-50 req/s, 200 % of the median)\n"
	if !strings.Contains(stdout, "Search 1 of 2:\n") || !strings.Contains(stdout, "Search 2 of 2:\n") || !strings.HasSuffix(stdout, want) ||
		strings.Count(stdout, " req/s: ") != 4 {
		t.Fatalf("stdout:\n%s\nwant it to end with %q", stdout, want)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Capacity struct {
			Rate     float64 `json:"rate"`
			Searches []struct {
				Rate    float64 `json:"rate"`
				AtLeast bool    `json:"at_least"`
				Judged  bool    `json:"judged"`
			} `json:"searches"`
		} `json:"capacity"`
		Repeats []savedCapacity `json:"repeats"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	c := saved.Capacity
	if c.Rate != 25 || len(c.Searches) != 2 || c.Searches[0].Rate != 50 || !c.Searches[0].AtLeast || c.Searches[1].Rate != 0 ||
		!c.Searches[1].Judged || len(saved.Repeats) != 2 || saved.Repeats[0].Capacity == nil || len(saved.Repeats[1].Capacity.Steps) != 2 {
		t.Fatalf("saved %s", data[:min(len(data), 2000)])
	}
	// The saved series reports, and compares with its searches' spread.
	if stdout, stderr, code := webload(t, nil, "compare", out, out); code != 0 || !strings.Contains(stdout, "(per run, mean of 2)") {
		t.Fatalf("compare: exit %d\n%s%s", code, stdout, stderr)
	}
}

// A signal ends the search in its step: the steps measured are printed and saved, the step in
// progress too, marked partial (neither passed nor failed); the capacity is given as a lower
// bound, the saved stop reason is "interrupted", and the exit is the signal's, as a run's. The
// site sends the signal itself, at the 5th request of the second step, so the second step is
// cut however long the first one took to measure.
func TestCapacityInterrupted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var firstStepDone atomic.Bool
			var second atomic.Int64
			site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if firstStepDone.Load() && second.Add(1) == 5 {
					cancel(signalCause{tc.sig})
				}
				w.Write([]byte("ok\n"))
			}))
			t.Cleanup(site.Close)
			out := filepath.Join(t.TempDir(), "cap.json")
			stdout := &signalOnLine{want: " req/s: ", signal: func() { firstStepDone.Store(true) }}
			var stderr bytes.Buffer
			err := runApp(ctx, []string{"webload", "capacity", "--slo", "p95<5s", "--step-time", "1s", "--settle", "0",
				"--from", "25", "--max-steps", "20", "--no-parser", "-o", out, site.URL + "/"}, stdout, &stderr,
				func(string) (string, bool) { return "", false })
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			text := stdout.String()
			if n := strings.Count(text, " req/s: "); n != 2 || !strings.Contains(text, "25 req/s: ") ||
				!strings.Contains(text, "PARTIAL: the search was interrupted") ||
				!strings.Contains(text, "Capacity: at least 25 req/s (p95 ") || !strings.Contains(text, "; search interrupted at 50 req/s)") {
				t.Fatalf("want the first step, the partial second and the capacity as a lower bound:\n%s", text)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var saved struct {
				Run struct {
					Rate       float64 `json:"rate"`
					StopReason string  `json:"stop_reason"`
				} `json:"run"`
				Capacity struct {
					Rate          float64 `json:"rate"`
					StopReason    string  `json:"stop_reason"`
					InterruptedAt float64 `json:"interrupted_at"`
					Steps         []struct {
						Rate    float64 `json:"rate"`
						Passed  bool    `json:"passed"`
						Partial bool    `json:"partial"`
						Broke   string  `json:"broke"`
					} `json:"steps"`
				} `json:"capacity"`
			}
			if err := json.Unmarshal(data, &saved); err != nil {
				t.Fatal(err)
			}
			c := saved.Capacity
			if saved.Run.StopReason != "interrupted" || saved.Run.Rate != 25 || c.Rate != 25 || c.StopReason != "interrupted" || c.InterruptedAt != 50 {
				t.Fatalf("saved run %+v, capacity %+v", saved.Run, c)
			}
			if len(c.Steps) != 2 || !c.Steps[0].Passed || c.Steps[1].Rate != 50 || !c.Steps[1].Partial || c.Steps[1].Passed || c.Steps[1].Broke != "" {
				t.Fatalf("saved steps %+v, want 25 passed and 50 partial", c.Steps)
			}
		})
	}
}

// webload compare --max-regression capacity=... does not judge an interrupted search: its
// capacity is a lower bound. The limit is inconclusive (exit 4), naming the search.
func TestCapacityCompareInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	save := func(name string, interrupted bool) string {
		rep, err := stats.ReadJSON(filepath.Join("..", "..", "stats", "testdata", "saved", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if interrupted {
			rep.Capacity.StopReason, rep.Capacity.InterruptedAt = stats.StopInterrupted, 15
		}
		path := filepath.Join(dir, name+".json")
		if err := stats.SaveJSON(path, &rep); err != nil {
			t.Fatal(err)
		}
		return path
	}
	base, cand := save("capacity", false), save("capacity-b", true)
	stdout, stderr, code := webload(t, nil, "compare", "--max-regression", "capacity=10%", base, cand)
	if code != exitInconclusive || !strings.Contains(stdout, "falls over after 10 Capacity: the search of falls over after 10 was interrupted at 15 req/s") ||
		!strings.Contains(stdout, "INCONCLUSIVE") || strings.Contains(stdout, ": ok") {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitInconclusive, stdout, stderr)
	}
}

// signalOnLine is a stdout that calls signal once, when a write first holds want.
type signalOnLine struct {
	bytes.Buffer
	want   string
	signal func()
	sent   bool
}

func (w *signalOnLine) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if !w.sent && strings.Contains(w.Buffer.String(), w.want) {
		w.sent = true
		w.signal()
	}
	return n, err
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
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "p95<5s", "--step-time", "1s", "--settle", "0",
		"--from", "25", "--max-steps", "2", "--no-parser", "--prometheus-listen", addr, site.URL+"/")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if !seen["webload_step 25"] || !seen["webload_step 50"] || len(seen) != 2 {
		t.Errorf("steps seen while answering: %v; want webload_step 25 and 50", seen)
	}
}
