package report

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// overlapShard is one shard's timing in an overlap test: when it started after t0 and for how
// long it ran. A shard that ran for no time made no request, as one without users.
type overlapShard struct {
	late, elapsed time.Duration
}

// mergedShards merges shards that ran at the given times, each with one request, planned to
// start at t0 when planned is set.
func mergedShards(t *testing.T, shards []overlapShard, planned bool) stats.Report {
	t.Helper()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}}
	var reps []stats.Report
	for i, sh := range shards {
		rec := stats.NewRecorder(targets, stats.Options{})
		users := 0
		if sh.elapsed > 0 {
			rec.Record([]loader.Result{{Status: 200, Latency: time.Millisecond}})
			users = 1
		}
		info := stats.RunInfo{Test: "same", Shard: &stats.ShardInfo{Index: i, Count: len(shards)}}
		r := rec.Report(loader.Outcome{Started: t0.Add(sh.late), Elapsed: sh.elapsed, Users: users}, info, "x")
		if planned {
			r.Run.Shard.PlannedStart = t0
			r.Run.Shard.StartOffset = sh.late.Seconds()
		}
		reps = append(reps, r)
	}
	got, err := stats.Merge(reps)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A merge records how late the latest shard started and how long all shards ran at once, and
// calls shards that ran together for less than half of the shortest shard's run not one test.
func TestMergeShardsOverlap(t *testing.T) {
	t.Parallel()
	const s = time.Second
	tests := []struct {
		name       string
		shards     []overlapShard
		planned    bool
		late       float64 // seconds
		together   float64
		shortest   float64
		overlapped bool
	}{
		{"together", []overlapShard{{2 * time.Millisecond, 10 * s}, {1 * time.Millisecond, 10 * s}, {0, 10 * s}}, true,
			0.002, 9.998, 10, true},
		{"the latest started after the earliest ended", []overlapShard{{0, 10 * s}, {15 * s, 10 * s}}, true,
			15, -5, 10, false},
		{"overlap under half the shortest", []overlapShard{{0, 10 * s}, {6 * s, 10 * s}}, true,
			6, 4, 10, false},
		{"overlap of exactly half", []overlapShard{{0, 10 * s}, {5 * s, 10 * s}}, true,
			5, 5, 10, true},
		{"all late together", []overlapShard{{30 * s, 10 * s}, {30 * s, 10 * s}}, true,
			30, 10, 10, true},
		{"no planned start: late after the earliest", []overlapShard{{3 * s, 10 * s}, {0, 10 * s}}, false,
			3, 7, 10, true},
		{"a shard that stopped early", []overlapShard{{0, 60 * s}, {1 * s, 2 * s}}, true,
			1, 2, 2, true},
		// More shards than users: a shard without users ends at once, having loaded nothing.
		{"a shard that made no request", []overlapShard{{0, 10 * s}, {1 * s, 10 * s}, {0, 0}}, true,
			1, 9, 10, true},
		{"no shard made a request", []overlapShard{{0, 0}, {2 * s, 0}}, true,
			2, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := mergedShards(t, tt.shards, tt.planned)
			o := rep.Run.ShardsOverlap
			if o == nil {
				t.Fatal("the merged result has no shards_overlap")
			}
			near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
			if !near(o.Lateness, tt.late) || !near(o.Together, tt.together) || !near(o.Shortest, tt.shortest) || o.Overlapped != tt.overlapped {
				t.Errorf("got %+v; want lateness %g, together %g, shortest %g, overlapped %v", *o, tt.late, tt.together, tt.shortest, tt.overlapped)
			}
			var b strings.Builder
			writeShards(&b, &rep)
			if got := strings.Contains(b.String(), "NOT run together"); got == tt.overlapped {
				t.Errorf("the text says %q; want NOT run together: %v", b.String(), !tt.overlapped)
			}
			if err := reread(t, &rep); err != nil {
				t.Errorf("a merge's own result is refused: %v", err)
			}
		})
	}
}

// A saved overlap that no merge can have measured is refused on load, naming its key.
func TestSaneRefusesShardsOverlap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		o    stats.ShardOverlap
		key  string
	}{
		{"together longer than the shortest shard", stats.ShardOverlap{Together: 11, Shortest: 10}, "run.shards_overlap.together is 11 s"},
		{"negative shortest", stats.ShardOverlap{Together: -12, Shortest: -1}, "run.shards_overlap.shortest is -1 s"},
	} {
		rep := mergedShards(t, []overlapShard{{0, time.Second}, {0, time.Second}}, true)
		rep.Run.ShardsOverlap = &tc.o
		err := reread(t, &rep)
		if !errors.Is(err, stats.ErrCorruptResult) || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.key)
		}
	}
}

// A merge saved before the overlap was recorded still says how late its latest shard started.
func TestShardsLineWithoutOverlap(t *testing.T) {
	t.Parallel()
	rep := mergedShards(t, []overlapShard{{0, time.Second}, {3 * time.Millisecond, time.Second}}, true)
	rep.Run.ShardsOverlap = nil
	var b strings.Builder
	writeShards(&b, &rep)
	if want := "the latest started 3.000 ms after the planned start\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("got %q, want it to end %q", b.String(), want)
	}
}
