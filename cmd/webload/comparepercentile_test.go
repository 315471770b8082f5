package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A figure no run measures is a usage error, exit 2, in one line that names the flag, the
// figure and what to write instead: never a limit that passes "not judged".
func TestCompareRefusesUnknownFigures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := savedSeries(t, dir, "old", 1, 20*time.Millisecond)
	cand := savedSeries(t, dir, "new", 2, 20*time.Millisecond)
	cases := []struct {
		args []string
		want []string // in the one line of stderr
	}{
		{[]string{"--max-regression", "p75=10%"}, []string{"--max-regression", `"p75"`, "write p(75)"}},
		{[]string{"--max-regression", "speed=10%"}, []string{"--max-regression", `"speed"`, "known: availability,", "or p(N)"}},
		{[]string{"--max-regression", "p(101)=10%"}, []string{"--max-regression", "p(101)", "at most 100"}},
		{[]string{"--max-regression", "bytes=10%"}, []string{"--max-regression", `"bytes"`, "known: "}},
		{[]string{"--per-url=p75"}, []string{"--per-url", `"p75"`, "write p(75)"}},
		{[]string{"--per-url=speed"}, []string{"--per-url", `"speed"`, "known per URL: rtime, p50"}},
		{[]string{"--per-url=error_rate"}, []string{"--per-url", "error_rate is not a response time kept per URL"}},
		{[]string{"--per-url", "p99,rtime"}, []string{"--per-url=p99,rtime"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, append(append([]string{"compare"}, c.args...), old, cand)...)
			if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("exit %d, want 2 and one line on stderr\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

// --max-regression takes any percentile, judged by the quantile test on the two distributions.
func TestCompareLimitOnAnyPercentile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := savedSeries(t, dir, "old", 1, 20*time.Millisecond)
	slower := savedSeries(t, dir, "new", 3, 40*time.Millisecond)
	stdout, stderr, code := webload(t, nil, "compare", "--max-regression", "p(75)=15%,p(99.5)=150%", old, slower)
	if code != 1 || !strings.Contains(stdout, "new p(75) ") || !strings.Contains(stdout, "FAILED (significant, p = ") ||
		!strings.Contains(stdout, "new p(99.5) ") || !strings.Contains(stderr, "1 of 2 gates failed") {
		t.Errorf("exit %d, want 1 with p(75) failed and p(99.5) ok\n%s%s", code, stdout, stderr)
	}
}

// --per-url=p99,rtime lists the URLs whose p99, then whose mean, changed, each line in the JSON
// naming its figure; --per-url alone still lists p95.
func TestComparePerURLFigures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := savedSeries(t, dir, "old", 1, 20*time.Millisecond)
	slower := savedSeries(t, dir, "new", 3, 40*time.Millisecond)
	figuresOf := func(args ...string) []string {
		t.Helper()
		stdout, stderr, code := webload(t, nil, append(append([]string{"compare", "--format", "json"}, args...), old, slower)...)
		var cmp struct {
			URLChanges []struct {
				Figure, Path string
				Base, Value  float64
				BaseP95      float64 `json:"base_p95"`
			} `json:"url_changes"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &cmp) != nil {
			t.Fatalf("%q: exit %d\n%s%s", args, code, stdout, stderr)
		}
		var figs []string
		for _, u := range cmp.URLChanges {
			if u.Path != "/page" || u.Base <= 0 || u.Value <= u.Base || u.BaseP95 <= 0 {
				t.Errorf("%q: line %+v; want /page, slower", args, u)
			}
			figs = append(figs, u.Figure)
		}
		return figs
	}
	if got := figuresOf("--per-url=p99,rtime"); strings.Join(got, ",") != "p99,rtime" {
		t.Errorf("--per-url=p99,rtime: lines about %q", got)
	}
	if got := figuresOf("--per-url"); strings.Join(got, ",") != "p95" {
		t.Errorf("--per-url: lines about %q, want p95", got)
	}
	stdout, _, code := webload(t, nil, "compare", "--per-url=p(99.5)", old, slower)
	if code != 0 || !strings.Contains(stdout, "URLs whose p(99.5) changed most") || strings.Contains(stdout, "URLs whose p95") {
		t.Errorf("--per-url=p(99.5): exit %d\n%s", code, stdout)
	}
}
