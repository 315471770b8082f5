package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

// shiftedShards copies the saved two-shard run (shard 0 ran 0.216 s, shard 1 0.214 s, started
// 1.3 and 1.9 ms after the planned start) into dir, shard 1 started shift later, and returns the
// two files.
func shiftedShards(t *testing.T, dir string, shift time.Duration) []string {
	t.Helper()
	var files []string
	for i, name := range []string{"shard0.json", "shard1.json"} {
		rep, err := stats.ReadJSON(filepath.Join("..", "..", "stats", "testdata", "saved", name))
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			rep.Run.StartedAt = rep.Run.StartedAt.Add(shift)
			rep.Run.Shard.StartOffset += shift.Seconds()
		}
		out := filepath.Join(dir, name)
		if err := stats.SaveJSON(out, &rep); err != nil {
			t.Fatal(err)
		}
		files = append(files, out)
	}
	return files
}

// merge warns, in one line on stderr, about shards that did not run together, fails with exit 1
// when the latest started more than --max-lateness late, and records the overlap in the merged
// result either way.
func TestMergeLateness(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		shift      time.Duration // shard 1's start moved this much later
		args       []string
		code       int
		warn       string // "" for no warning
		err        string // "" for none
		overlapped bool
	}{
		{"together", 0, nil, exitOK, "", "", true},
		{"together, under --max-lateness", 0, []string{"--max-lateness", "1s"}, exitOK, "", "", true},
		{"together, over --max-lateness", 0, []string{"--max-lateness", "1ms"}, exitGateFailed, "",
			"the latest shard started 1.854ms late, more than --max-lateness 1ms", true},
		{"started after the other ended", time.Second, nil, exitOK,
			"the latest started 0.785 s after the first had ended", "", false},
		{"overlap under half", 150 * time.Millisecond, nil, exitOK,
			"all at once for 0.065 s, less than half of the shortest shard's 0.214 s", "", false},
		{"apart, under --max-lateness", time.Second, []string{"--max-lateness", "2s"}, exitOK,
			"did not run together", "", false},
		{"apart, over --max-lateness", time.Second, []string{"--max-lateness", "500ms"}, exitGateFailed,
			"did not run together", "the latest shard started 1.001854s late", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			total := filepath.Join(dir, "total.json")
			args := append([]string{"merge", "-o", total}, tt.args...)
			stdout, stderr, code := webload(t, nil, append(args, shiftedShards(t, dir, tt.shift)...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			lines := strings.Count(stderr, "\n")
			warned := strings.Contains(stderr, "warning: the shards did not run together")
			switch {
			case warned != (tt.warn != ""), tt.warn != "" && !strings.Contains(stderr, tt.warn):
				t.Errorf("stderr %q; want the warning %q", stderr, tt.warn)
			case tt.err != "" && !strings.Contains(stderr, tt.err):
				t.Errorf("stderr %q; want the error %q", stderr, tt.err)
			case lines != btoi(warned)+btoi(tt.err != ""):
				t.Errorf("stderr has %d lines, want one per warning and error: %q", lines, stderr)
			}
			if !strings.Contains(stdout, "Shards:") || strings.Contains(stdout, "NOT run together") == tt.overlapped {
				t.Errorf("the report's shards line does not say whether they ran together (%v): %q", tt.overlapped, stdout)
			}
			// The result is written even when the lateness fails the merge, as a run's is when
			// a gate fails.
			rep, err := stats.ReadJSON(total)
			if err != nil {
				t.Fatal(err)
			}
			if o := rep.Run.ShardsOverlap; o == nil || o.Overlapped != tt.overlapped {
				t.Errorf("the merged result records %+v, want overlapped %v", o, tt.overlapped)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// --max-lateness takes a duration or seconds, and says so when given anything else.
func TestMergeMaxLatenessBad(t *testing.T) {
	t.Parallel()
	files := shiftedShards(t, t.TempDir(), 0)
	_, stderr, code := webload(t, nil, append([]string{"merge", "--max-lateness", "soon"}, files...)...)
	if code != exitUsage || !strings.Contains(stderr, "--max-lateness") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, %q; want %d and one line naming --max-lateness", code, stderr, exitUsage)
	}
}

// Two shards run one after the other against a loopback server did not run together: the merge
// of their real results says so.
func TestMergeWarnsShardsRunApart(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	var files []string
	for i := range 2 {
		out := filepath.Join(dir, "shard-"+string(rune('0'+i))+".json")
		args := []string{"-q", "--no-parser", "-c", "2", "-r", "3", "--shard", string(rune('0'+i)) + "/2", "-o", out, site.URL + "/"}
		if _, stderr, code := webload(t, nil, args...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		files = append(files, out)
	}
	_, stderr, code := webload(t, nil, append([]string{"merge"}, files...)...)
	if code != exitOK || !strings.Contains(stderr, "the first had ended") {
		t.Errorf("exit %d, stderr %q; want 0 and the warning that the shards did not run together", code, stderr)
	}
	if served := site.snapshot()["/"]; served != 6 {
		t.Errorf("the server saw %d requests, want 6", served)
	}
}
