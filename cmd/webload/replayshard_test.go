package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/stats"
)

// A shard dealt none of the log's visitors (one visitor, three shards) still runs and writes
// its empty result, as a run's empty shard does, and says so: failing it would fail the
// sharded job whose other shard carries the whole log, and the merge needs every result.
func TestReplayEmptyShardMerges(t *testing.T) {
	t.Parallel()
	const n = 6
	var lines []string
	for i := range n {
		lines = append(lines, logLine(i/3, "10.0.0.1", "Mozilla/5.0", fmt.Sprintf("/p?seq=%d", i)))
	}
	log := writeReplayLog(t, lines)
	site := newRecorder(t, 0, nil)
	dir := t.TempDir()
	var files []string
	empty := 0
	for shard := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("shard%d.json", shard))
		_, stderr, code := webload(t, nil, "replay", "-q", log, "--site", site.URL, "--speed", "20", "--shard", fmt.Sprintf("%d/3", shard), "-o", out)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", shard, code, stderr)
		}
		rep, err := stats.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Replay.Planned == 0 {
			empty++
			if want := fmt.Sprintf("shard %d/3 has none of the log's visitors", shard); !strings.Contains(stderr, want) {
				t.Errorf("shard %d: stderr %q, want %q", shard, stderr, want)
			}
		}
		files = append(files, out)
	}
	if empty != 2 {
		t.Errorf("%d empty shards, want 2 (one visitor)", empty)
	}
	rep := mergeShards(t, dir, files)
	if r := rep.Replay; r == nil || r.Planned != n || r.Sent != n || rep.Requests != n || len(site.arrivals()) != n {
		t.Errorf("merged replay %+v, %d requests, %d arrived; want %d", rep.Replay, rep.Requests, len(site.arrivals()), n)
	}
}

// mergeShards merges the shards' results with webload merge, into dir, and reads the result.
func mergeShards(t *testing.T, dir string, files []string) stats.Report {
	t.Helper()
	merged := filepath.Join(dir, "merged.json")
	if _, stderr, code := webload(t, nil, append([]string{"merge", "-o", merged}, files...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	rep, err := stats.ReadJSON(merged)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
