package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
)

// slowerFrom saves nights results into a history folder, those from night from on (counted
// from 1) with requests twice as slow.
func slowerFrom(t *testing.T, nights, from int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range nights {
		lo := 20 * time.Millisecond
		if i+1 >= from {
			lo = 40 * time.Millisecond
		}
		savedSeries(t, dir, fmt.Sprintf("night %02d", i+1), uint64(100+i), lo)
	}
	return dir
}

// A step that most of the window shares is forgotten by the median rule, but it stays listed
// as a change point, and --max-regression fails on it until it leaves the window. Before change
// points, "most of the window" passed.
func TestCompareHistoryChangePoints(t *testing.T) {
	t.Parallel()
	dir := slowerFrom(t, 30, 13)
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"most of the window shares the step", []string{"--last", "25"}, 1, []string{
			"newest p95 ", ": ok", // the median rule: the window's median is the slow nights'
			"p95 ms: from night 13 (", "night 13), ", " -> ", "REGRESSION",
			"p95 ms GET /page: from night 13 (",
			"newest p95 segment from night 13 (", "FAILED (change point)"}},
		{"the window has moved past it", []string{"--last", "10"}, 0, []string{
			"(before the last 10)", "began before the last 10 results, ok"}},
		{"a limit the step keeps", []string{"--last", "25", "--max-regression", "p95=150%"}, 0, []string{
			"allowed 150.0% worse): ok"}},
		{"a minimum larger than the step", []string{"--last", "25", "--change-min", "150%"}, 0, []string{
			"at least 150%", "  none", "no change point in 30 results: ok"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkHistoryCompare(t, dir, tc.code, tc.want, tc.args...)
		})
	}
}

func TestCompareHistoryChangePointsJSON(t *testing.T) {
	t.Parallel()
	dir := slowerFrom(t, 12, 8)
	stdout, stderr, code := webload(t, nil, "compare", "--history", dir, "--format", "json", "--per-url=p99")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var back struct {
		ChangePoints struct {
			Nights  int
			P       float64
			Changes []struct {
				Figure, Path, Label string
				Index               int
				Regression          bool
			}
		} `json:"change_points"`
	}
	if err := json.Unmarshal([]byte(stdout), &back); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, c := range back.ChangePoints.Changes {
		found[c.Figure+" "+c.Path] = true
		if c.Index != 7 || c.Label != "night 08" {
			t.Errorf("%+v", c)
		}
	}
	if back.ChangePoints.Nights != 12 || back.ChangePoints.P != 0.001 || !found["p95 "] || !found["p99 /page"] || found["p95 /page"] {
		t.Errorf("%+v", back.ChangePoints)
	}
}

func TestCompareHistoryChangeFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"p of 0", []string{"--change-p", "0"}, "--change-p: p must be between 0 and 1"},
		{"p of 1", []string{"--change-p", "1"}, "--change-p: p must be between 0 and 1"},
		{"minimum not a number", []string{"--change-min", "big"}, `--change-min: want a percentage such as 5% (got "big")`},
		{"negative minimum", []string{"--change-min", "-5%"}, `--change-min: want a percentage of 0 or more such as 5% (got "-5%")`},
		// The message says the value given, not the fraction it was read as (-0.05).
		{"negative minimum without %", []string{"--change-min", "-5"}, `--change-min: want a percentage of 0 or more such as 5% (got "-5")`},
		{"minimum not finite", []string{"--change-min", "Inf"}, `--change-min: want a percentage of 0 or more such as 5% (got "Inf")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, append([]string{"compare", "--history", t.TempDir()}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, want 2 and one line with %q: %s", code, tc.want, stderr)
			}
		})
	}
}

// Twenty nightly runs against a loopback site that answers 60 ms slower from the 13th night on:
// compare --history finds the change where it began, for the run's p95 and the URL's. Other
// change points may be listed too (a night the machine was busy); the one at night 13 must be.
// Not parallel: the other tests of the package would make the nights' p95 of 30 requests swing
// by tens of milliseconds; the step is six times the site's delay so that what noise remains
// cannot hide it.
func TestNightlyRunsChangePoint(t *testing.T) {
	testtier.Slow(t)
	var delay atomic.Int64
	delay.Store(int64(10 * time.Millisecond))
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(delay.Load()))
		fmt.Fprintln(w, "page")
	}))
	t.Cleanup(site.Close)
	history := filepath.Join(t.TempDir(), "load-history")
	const nights, slowFrom = 20, 13
	for night := 1; night <= nights; night++ {
		if night == slowFrom {
			delay.Store(int64(70 * time.Millisecond))
		}
		_, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "15", "--label", fmt.Sprintf("nightly %02d", night),
			"--history", history, site.URL+"/page")
		if code != 0 {
			t.Fatalf("night %d: exit %d: %s", night, code, stderr)
		}
	}
	stdout, stderr, code := webload(t, nil, "compare", "--history", history, "--format", "json")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	var back struct {
		ChangePoints struct {
			Nights  int
			Changes []struct {
				Figure, Path, Label string
				Index               int
				Regression          bool
			}
		} `json:"change_points"`
	}
	if err := json.Unmarshal([]byte(stdout), &back); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, c := range back.ChangePoints.Changes {
		if c.Figure == "p95" && c.Index == slowFrom-1 && c.Regression && c.Label == fmt.Sprintf("nightly %02d", slowFrom) {
			found[c.Path] = true
		}
	}
	if back.ChangePoints.Nights != nights || !found[""] || !found["/page"] {
		text, _, _ := webload(t, nil, "compare", "--history", history)
		t.Errorf("no p95 regression from night %d for the run and /page:\n%s", slowFrom, text)
	}
}
