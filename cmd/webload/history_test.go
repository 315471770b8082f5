package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// savedNights saves one result per night into a history folder, named so that they sort by
// night as the results of --history do; the last night's requests take lastLo.
func savedNights(t *testing.T, nights int, lastLo time.Duration) string {
	t.Helper()
	dir := t.TempDir()
	for i := range nights {
		lo := 20 * time.Millisecond
		if i == nights-1 {
			lo = lastLo
		}
		savedSeries(t, dir, fmt.Sprintf("night %02d", i+1), uint64(100+i), lo)
	}
	return dir
}

// A nightly job is green until the history can judge a night, then red on a real step only.
func TestCompareHistoryMinHistory(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	tests := []struct {
		name   string
		nights int
		lastLo time.Duration
		args   []string
		code   int
		want   []string
	}{
		{"one result", 1, 20 * ms, nil, 0,
			[]string{"1 run, night 01", "not enough history: 0 of 5 results", "newest p95 ", "not judged, not enough history (0 of 5 results)"}},
		{"two results, the second twice as slow", 2, 40 * ms, nil, 0,
			[]string{"2 runs", "not enough history: 1 of 5 results", "not judged, not enough history (1 of 5 results)"}},
		{"below --min-history", 6, 40 * ms, []string{"--min-history", "8"}, 0,
			[]string{"not enough history: 5 of 8 results", "not judged"}},
		{"enough history, no change", 6, 20 * ms, nil, 0,
			[]string{"6 runs", "newest p95 ", ": ok"}},
		{"enough history, twice as slow", 6, 40 * ms, nil, 1,
			[]string{"6 runs", " ms vs median ", "+100.", "FAILED (significant, p = "}},
		{"one result as JSON", 1, 20 * ms, []string{"--format", "json"}, 0,
			[]string{`"note": "not enough history: 0 of 5 results`, `"min_history": 5`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := savedNights(t, tc.nights, tc.lastLo)
			checkHistoryCompare(t, dir, tc.code, tc.want, tc.args...)
		})
	}
}

// A history that cannot be judged at all is a mistake in the job, not a green night.
func TestCompareHistoryUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"empty folder", []string{"--history", t.TempDir()}, "holds no results"},
		{"no such folder", []string{"--history", filepath.Join(t.TempDir(), "missing")}, "--history:"},
		{"a window that cannot hold the history", []string{"--history", t.TempDir(), "--last", "5"},
			"--last: want more than --min-history (5), got 5"},
		{"a history of one", []string{"--history", t.TempDir(), "--min-history", "1"}, "--min-history: want at least 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, append([]string{"compare"}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want 2 and %q: %s", code, tc.want, stderr)
			}
		})
	}
}

// The nightly job of examples/ci on its first night: the run keeps its result, and the
// comparison with no earlier nights passes and still writes its JUnit file.
func TestNightlyJobFirstNight(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	history := filepath.Join(dir, "load-history")
	_, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "5", "--label", "nightly abc123", "--history", history,
		"-o", filepath.Join(dir, "result.json"), "--assert", "availability>=99.9", site.URL+"/n")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	junit := filepath.Join(dir, "regression.xml")
	stdout, stderr, code := webload(t, nil, "compare", "--history", history, "--last", "30", "--min-history", "5",
		"--max-regression", "p95=10%,trate=5%", "--junit", junit)
	if code != 0 || !strings.Contains(stdout, "not enough history: 0 of 5 results") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	if data, err := os.ReadFile(junit); err != nil || strings.Count(string(data), "<testcase") != 2 || strings.Contains(string(data), "<failure") {
		t.Errorf("JUnit (%v):\n%s", err, data)
	}
}

// checkHistoryCompare runs compare --history on dir with a 10 % p95 limit and args, and checks its
// exit code and that its output has each of want.
func checkHistoryCompare(t *testing.T, dir string, code int, want []string, args ...string) {
	t.Helper()
	stdout, stderr, got := webload(t, nil, append([]string{"compare", "--history", dir, "--max-regression", "p95=10%"}, args...)...)
	if got != code {
		t.Errorf("exit %d, want %d\n%s%s", got, code, stdout, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s%s", w, stdout, stderr)
		}
	}
}
