package main

import (
	"encoding/json"
	"encoding/xml"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/nodeexportertest"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// stackRun loads a site whose every page takes delay, three runs, and saves the result.
func stackRun(t *testing.T, dir, label string, delay time.Duration, extra ...string) string {
	t.Helper()
	site := newCounter(t, delay, 200)
	out := filepath.Join(dir, strings.ReplaceAll(label, " ", "-")+".json")
	args := append([]string{"-q", "-c", "5", "-r", "20", "--repeat", "3", "--repeat-pause", "0",
		"--label", label, "-o", out}, extra...)
	_, stderr, code := webload(t, nil, append(args, site.URL+"/page")...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", label, code, stderr)
	}
	return out
}

// savedSeries saves what stackRun would for a stack whose requests take lo to lo×1.1: three
// runs of 5 users and 100 requests each, every user busy all the run. The values are the
// test's own, so a comparison of them does not depend on how busy the machine is.
func savedSeries(t *testing.T, dir, label string, seed uint64, lo time.Duration) string {
	t.Helper()
	return savedRuns(t, dir, label, seed, lo, lo, lo)
}

// savedRuns is savedSeries with each run's own lo, for a site that varies from run to run.
func savedRuns(t *testing.T, dir, label string, seed uint64, los ...time.Duration) string {
	t.Helper()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8080/page"}}
	var runs []stats.Report
	for i, lo := range los {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		rec := stats.NewRecorder(targets, stats.Options{})
		batch := make([]loader.Result, 100)
		var busy time.Duration
		for j := range batch {
			batch[j] = loader.Result{Status: 200, BodyBytes: 1000, User: int32(j % 5),
				Latency: lo + time.Duration(rng.Int64N(int64(lo/10)))}
			busy += batch[j].Latency
		}
		rec.Record(batch)
		runs = append(runs, rec.Report(loader.Outcome{Elapsed: busy / 5, Users: 5, Stop: loader.Completed}, stats.RunInfo{Version: "test"}, label))
	}
	rep, err := stats.Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, strings.ReplaceAll(label, " ", "-")+".json")
	if err := stats.SaveJSON(out, &rep); err != nil {
		t.Fatal(err)
	}
	return out
}

// A CI job must fail on a real regression and pass on noise. The results compared are made
// from values the test controls (savedSeries): real runs on a busy machine make noise that
// the verdict rightly calls noise, and the test would fail for it.
func TestCompareGatesRegressionsNotNoise(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := savedSeries(t, dir, "MySQL 5.1", 1, 20*time.Millisecond)
	same := savedSeries(t, dir, "Percona 5.6", 2, 20*time.Millisecond)
	slower := savedSeries(t, dir, "MariaDB Aria", 3, 40*time.Millisecond)

	stdout, stderr, code := webload(t, nil, "compare", "--max-regression", "p95=15%,trate=15%", old, same)
	if code != 0 {
		t.Errorf("same speed: exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code = webload(t, nil, "compare", "--max-regression", "p95=15%,trate=15%", "--junit",
		filepath.Join(dir, "verdict.xml"), old, slower)
	// Twice as slow: both figures break their limits.
	if code != 1 || !strings.Contains(stdout, "MariaDB Aria p95") || !strings.Contains(stdout, "FAILED (significant") {
		t.Errorf("twice as slow: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, " of 2 gates failed") {
		t.Errorf("stderr %q", stderr)
	}
	var suites struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "verdict.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, &suites); err != nil || len(suites.Suites) != 1 || suites.Suites[0].Tests != 2 || suites.Suites[0].Failures < 1 {
		t.Errorf("JUnit %+v (%v):\n%s", suites, err, data)
	}

	stdout, _, code = webload(t, nil, "compare", "--format", "md", "--per-url", old, same, slower)
	if code != 0 || !strings.HasPrefix(stdout, "| Run | ETime (s) |") || strings.Count(stdout, "(per run, mean of 3)") != 3 ||
		!strings.Contains(stdout, "URLs whose p95 changed most") {
		t.Errorf("markdown comparison (exit %d):\n%s", code, stdout)
	}
	stdout, _, code = webload(t, nil, "compare", "--format", "json", old, slower)
	if code != 0 || !strings.Contains(stdout, `"verdict": "significant"`) {
		t.Errorf("JSON comparison (exit %d):\n%s", code, stdout)
	}
}

// A change beyond the limit that the runs vary too much to confirm is neither a pass nor a
// failure: compare says how many repeats would decide, and exits 4.
func TestCompareInconclusiveExits4(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ms := time.Millisecond
	old := savedRuns(t, dir, "old", 1, 14*ms, 20*ms, 26*ms)
	slower := savedRuns(t, dir, "new", 2, 21*ms, 30*ms, 39*ms) // +50 %, every run slower
	stdout, stderr, code := webload(t, nil, "compare", "--max-regression", "p95=15%", old, slower)
	if code != 4 || !strings.Contains(stdout, "new p95") || !strings.Contains(stdout, "INCONCLUSIVE") ||
		!strings.Contains(stdout, "needs more repeats (") || !strings.Contains(stderr, "1 of 1 gates inconclusive") {
		t.Errorf("exit %d, want 4\n%s%s", code, stdout, stderr)
	}
	// A failure outranks an inconclusive check: exit 1.
	much := savedRuns(t, dir, "much slower", 3, 280*ms, 400*ms, 520*ms)
	if _, _, code := webload(t, nil, "compare", "--max-regression", "p95=15%", old, slower, much); code != 1 {
		t.Errorf("with a significant regression too: exit %d, want 1", code)
	}
}

func TestAssertGates(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	junit := filepath.Join(t.TempDir(), "gates.xml")
	stdout, stderr, code := webload(t, nil, "-c", "2", "-r", "5", "--assert", "availability>=99.9",
		"--assert", "p95<1ms", "--assert", "trate>=1000000", "--junit", junit, site.URL+"/g")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stdout, "Gate availability = 100.000 %, allowed >= 99.9 %: ok") ||
		!strings.Contains(stdout, "Gate trate = ") || !strings.Contains(stderr, "of 3 gates failed") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if data, err := os.ReadFile(junit); err != nil || strings.Count(string(data), "<testcase") != 3 {
		t.Errorf("JUnit (%v):\n%s", err, data)
	}
	_, stderr, code = webload(t, nil, "--assert", "p95<<800ms", site.URL+"/g")
	if code != 2 || !strings.Contains(stderr, `bad gate "p95<<800ms": at column 5`) {
		t.Errorf("bad expression: exit %d, %q", code, stderr)
	}
}

func TestHistoryTrend(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := newCounter(t, time.Millisecond, 200)
	dir := t.TempDir()
	for i := range 3 {
		_, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "10", "--label", "nightly", "--history", dir, site.URL+"/h")
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr)
		}
		time.Sleep(1100 * time.Millisecond) // history names have one-second resolution
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*-nightly.json"))
	if len(files) != 3 {
		t.Fatalf("history holds %v", files)
	}
	stdout, stderr, code := webload(t, nil, "compare", "--history", dir, "--last", "30")
	if code != 0 || !strings.Contains(stdout, "3 runs") || !strings.Contains(stdout, "TRate /s") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestServerMetricsLocal(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	stdout, stderr, code := webload(t, nil, "-c", "2", "-r", "20", "--server-metrics", "local", site.URL+"/s")
	if code != 0 || !strings.Contains(stdout, "Server load:") || !strings.Contains(stdout, "from local, 0 failed") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	// A node exporter that is not there: the run goes on and says so. An interval of an hour
	// leaves the readings before and after the run, however long the run takes.
	stdout, stderr, code = webload(t, nil, "-c", "1", "-r", "3", "--interval", "1h", "--server-metrics", "http://"+closedAddr(t)+"/metrics", site.URL+"/s")
	if code != 0 || !strings.Contains(stdout, "Server samples:") || !strings.Contains(stdout, "2 failed") {
		t.Errorf("unreachable exporter: exit %d\n%s%s", code, stdout, stderr)
	}
}

// LA and MEM from a real node exporter, through to the comparison table.
func TestServerMetricsFromNodeExporter(t *testing.T) {
	t.Parallel()
	url := nodeexportertest.Start(t)
	dir := t.TempDir()
	a := stackRun(t, dir, "old", time.Millisecond, "--server-metrics", url)
	b := stackRun(t, dir, "new", time.Millisecond, "--server-metrics", url)
	for _, path := range []string{a, b} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Server *struct {
				Source        string  `json:"source"`
				Samples       int     `json:"samples"`
				Failures      int     `json:"failures"`
				PeakMemUsedMB float64 `json:"peak_mem_used_mb"`
			} `json:"server"`
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if s := rep.Server; s == nil || s.Source != url || s.Samples < 6 || s.Failures != 0 || s.PeakMemUsedMB <= 0 {
			t.Errorf("%s: server %+v", path, rep.Server)
		}
	}
	stdout, _, code := webload(t, nil, "compare", "--format", "json", a, b)
	if code != 0 || strings.Count(stdout, `"measured": true`) != 22 {
		t.Errorf("every column of both rows, LA and MEM included, should be measured (exit %d):\n%s", code, stdout)
	}
}
