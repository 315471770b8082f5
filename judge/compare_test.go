package judge

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// fakeRun records n transactions with latencies uniform in [lo, lo+spread) over an elapsed
// time, as a run of a stack with that speed would.
func fakeRun(label string, seed uint64, n int, lo, spread, elapsed time.Duration) stats.Report {
	targets := []urls.Target{{Method: "GET", URL: "http://10.0.0.1/a"}, {Method: "GET", URL: "http://10.0.0.1/b"}}
	rec := stats.NewRecorder(targets, stats.Options{})
	rng := rand.New(rand.NewPCG(seed, 1))
	batch := make([]loader.Result, 0, n)
	for i := range n {
		batch = append(batch, loader.Result{Target: int32(i % 2), Status: 200, BodyBytes: 1000,
			Latency: lo + time.Duration(rng.Int64N(int64(spread)))})
	}
	rec.Record(batch)
	return rec.Report(loader.Outcome{Elapsed: elapsed, Users: 20}, stats.RunInfo{}, label)
}

// series makes a --repeat series of three runs whose elapsed times vary by ±1 %.
func fakeSeries(t *testing.T, label string, seed uint64, lo, spread, elapsed time.Duration) stats.Report {
	t.Helper()
	var runs []stats.Report
	for i, f := range []float64{0.99, 1.0, 1.01} {
		runs = append(runs, fakeRun(label, seed+uint64(i), 1000, lo, spread, time.Duration(float64(elapsed)*f)))
	}
	rep, err := stats.Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestCompareTellsNoiseFromChange(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	base := fakeSeries(t, "MySQL 5.1", 1, 100*ms, 100*ms, 10*time.Second)
	same := fakeSeries(t, "Percona 5.6", 50, 100*ms, 100*ms, 10*time.Second)
	slow := fakeSeries(t, "MariaDB 10.0 Aria", 90, 130*ms, 130*ms, 13*time.Second)
	c, err := Compare([]stats.Report{base, same, slow}, true)
	if err != nil {
		t.Fatal(err)
	}
	verdict := func(row int, key string) string { return c.Rows[row].Cells[columnIndex(key)].Verdict }
	for _, key := range []string{"etime", "trate", "p50", "p95"} {
		if v := verdict(1, key); v != WithinNoise {
			t.Errorf("same stack, %s: %s, want within noise", key, v)
		}
		if v := verdict(2, key); v != Significant {
			t.Errorf("slower stack, %s: %s, want significant", key, v)
		}
	}
	if got := *c.Rows[2].Cells[columnIndex("p95")].Change; got < 0.25 || got > 0.35 {
		t.Errorf("slower stack p95 change %.3f, want about +0.30", got)
	}
	if !c.Rows[2].Cells[columnIndex("trate")].Worse || c.Rows[0].Cells[0].Change != nil {
		t.Error("a lower rate should be worse; the baseline has no change")
	}
	if c.Rows[1].Runs != 3 || len(c.Notes) != 0 {
		t.Errorf("runs %d, notes %v", c.Rows[1].Runs, c.Notes)
	}
	limits, err := ParseLimits("p95=10%,trate=5%")
	if err != nil {
		t.Fatal(err)
	}
	results := c.CheckLimits(limits)
	passed := map[string]bool{}
	for _, r := range results {
		passed[r.Check] = r.Passed
	}
	want := map[string]bool{"Percona 5.6: p95": true, "Percona 5.6: trate": true, "MariaDB 10.0 Aria: p95": false, "MariaDB 10.0 Aria: trate": false}
	for k, w := range want {
		if passed[k] != w {
			t.Errorf("%s passed = %v, want %v (%v)", k, passed[k], w, results)
		}
	}
	// URLs are matched by path although hosts may differ between stacks.
	if len(c.URLChanges) != 4 {
		t.Errorf("%d URL changes, want 2 per candidate", len(c.URLChanges))
	}
}

func TestCompareSingleRuns(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	a := fakeRun("old", 1, 2000, 100*ms, 100*ms, 10*time.Second)
	b := fakeRun("new", 2, 2000, 150*ms, 100*ms, 12*time.Second)
	c, err := Compare([]stats.Report{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	if v := c.Rows[1].Cells[columnIndex("trate")].Verdict; v != NoEstimate {
		t.Errorf("single runs, trate: %s, want no estimate", v)
	}
	if v := c.Rows[1].Cells[columnIndex("p50")].Verdict; v != Significant {
		t.Errorf("single runs, p50 shifted by 50 ms: %s, want significant by the rank test", v)
	}
	if len(c.Notes) != 1 || !strings.HasPrefix(c.Notes[0], "1 run, no noise estimate") {
		t.Errorf("notes %v", c.Notes)
	}
	if r := c.CheckLimits([]Limit{{Key: "trate", Max: 0.05}}); r[0].Passed || !strings.Contains(r[0].Text, "no noise estimate") {
		t.Errorf("a 17 %% rate drop with no estimate: %+v", r[0])
	}
	for _, m := range []string{"LA", "MEM"} {
		if cell := c.Rows[1].Cells[columnIndexByName(m)]; cell.Measured {
			t.Errorf("%s measured without server metrics", m)
		}
	}
}

func columnIndexByName(name string) int {
	for i, c := range columns {
		if c.Compare.Title == name {
			return i
		}
	}
	return -1
}

func TestCompareOutputs(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	a := fakeRun("MySQL 5.1 myisam", 1, 1000, 100*ms, 100*ms, 10*time.Second)
	b := fakeRun("Percona 5.6 XtraDB", 2, 1000, 90*ms, 100*ms, 9*time.Second)
	c, err := Compare([]stats.Report{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	var text, md bytes.Buffer
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	if !strings.HasPrefix(lines[0], "Run ") || !strings.Contains(lines[0], "TRate (/s)") ||
		!strings.HasPrefix(lines[1], "MySQL 5.1 myisam") || !strings.Contains(lines[2], "+11.1%?") {
		t.Errorf("text table:\n%s", text.String())
	}
	if len(lines[0]) != len(lines[1]) || len(lines[1]) != len(lines[2]) {
		t.Errorf("columns not aligned:\n%s", text.String())
	}
	if !strings.HasPrefix(md.String(), "| Run | ETime (s) |") || !strings.Contains(md.String(), "|---|---:|") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if _, err := Compare([]stats.Report{a}, false); err == nil {
		t.Error("compared a single result")
	}
}

func TestParseLimits(t *testing.T) {
	t.Parallel()
	got, err := ParseLimits("p95=10%, trate=5,failed=0%")
	if err != nil || len(got) != 3 || got[0] != (Limit{"p95", 0.1}) || got[1] != (Limit{"trate", 0.05}) || got[2] != (Limit{"failed", 0}) {
		t.Errorf("ParseLimits = %v, %v", got, err)
	}
	for _, bad := range []string{"", "p95", "p95=", "p95=x%", "p95=-1%", "speed=10%"} {
		if _, err := ParseLimits(bad); err == nil {
			t.Errorf("ParseLimits(%q) accepted", bad)
		}
	}
}

// A label (or URL) holding a Markdown table's syntax must stay in its cell: a `|` would start a
// new column, a newline end the row, and a backslash escape whatever follows it.
func TestCompareMarkdownKeepsEachLabelInItsCell(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	tests := []struct {
		name, label, want string
	}{
		{"a pipe", "nginx | tuned", "nginx | tuned"},
		// A run's label is shown escaped (Printable) in every output; a URL is not a label.
		{"a newline", "line one\nline two", `line one\nline two`},
		{"a CRLF", "line one\r\nline two", `line one\r\nline two`},
		{"a backslash", `C:\runs\a`, `C:\runs\a`},
		{"a backslash before a pipe", `a\|b`, `a\|b`},
		{"a trailing backslash", `a\`, `a\`},
		{"plain", "MySQL 5.1", "MySQL 5.1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := fakeRun("base", 1, 1000, 100*ms, 100*ms, 10*time.Second)
			cand := fakeRun(tc.label, 2, 1000, 90*ms, 100*ms, 9*time.Second)
			c, err := Compare([]stats.Report{base, cand}, false)
			if err != nil {
				t.Fatal(err)
			}
			c.URLChanges = []URLChange{{Label: stats.Printable(tc.label), Method: "GET", Path: "/q?" + tc.label, BaseP95: 0.1, P95: 0.2, Change: 1}}
			var md bytes.Buffer
			if err := c.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(md.String(), "\n")
			header := markdownCells(lines[0])
			// Header, separator, the base row, then the candidate's.
			row := markdownCells(lines[3])
			if len(row) != len(header) || row[0] != tc.want {
				t.Errorf("row %q has cells %q, want %d cells starting %q", lines[3], row, len(header), tc.want)
			}
			var urlRow string
			for i, l := range lines {
				if strings.HasPrefix(l, "| Run | URL |") && i+2 < len(lines) {
					urlRow = lines[i+2]
				}
			}
			cells := markdownCells(urlRow)
			// A path's line breaks become spaces, so that the row stays one line.
			path := "GET /q?" + strings.NewReplacer("\r\n", " ", "\n", " ").Replace(tc.label)
			if len(cells) != 7 || cells[0] != tc.want || cells[1] != path {
				t.Errorf("URL row %q has cells %q, want 7 starting %q, %q", urlRow, cells, tc.want, path)
			}
		})
	}
}

// markdownCells splits a table row as GitHub's Markdown does: a backslash escapes the next
// character, an unescaped pipe separates cells, and the outer pipes and spaces are dropped.
func markdownCells(line string) []string {
	var cells []string
	var cur strings.Builder
	escaped := false
	for _, r := range strings.TrimSpace(line) {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case r == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	// The leading pipe makes an empty first cell; the trailing one ends the last.
	if len(cells) > 0 && cells[0] == "" {
		cells = cells[1:]
	}
	return cells
}
