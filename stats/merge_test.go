package stats

import (
	"math"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Shards recorded apart and merged equal one recording of every result: counts, percentiles,
// timeline intervals (placed by each shard's start) and per-user fairness over all users.
func TestMergeEqualsOneRecording(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}, {Method: "GET", URL: "http://127.0.0.1/b"}}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	// Shard s has users 0..users-1 locally; the whole run numbers them on from the shards before.
	type shard struct {
		users int
		late  time.Duration // start after t0
	}
	shards := []shard{{3, 0}, {2, 1 * time.Second}, {4, 0}}
	all := NewRecorder(targets, Options{})
	var reps []Report
	firstUser := 0
	for s, sh := range shards {
		rec := NewRecorder(targets, Options{})
		var batch, shifted []loader.Result
		for i := range 50 * sh.users {
			r := loader.Result{Target: int32(i % 2), User: int32(i % sh.users), Status: 200,
				Start:   time.Duration(i) * 37 * time.Millisecond,
				Latency: time.Duration(500+(i*(s+3)*7919)%90000) * time.Microsecond}
			r.Intended = r.Start
			batch = append(batch, r)
			// The same request in the whole run's clock and user numbering.
			r.Start += sh.late
			r.Intended = r.Start
			r.User += int32(firstUser)
			shifted = append(shifted, r)
		}
		rec.Record(batch)
		all.Record(shifted)
		firstUser += sh.users
		info := RunInfo{Test: "same", Shard: &ShardInfo{Index: s, Count: len(shards)}}
		// Counts of the run's outcome add up: connections and what HTTP/2 servers sent.
		o := loader.Outcome{Started: t0.Add(sh.late), Elapsed: 8 * time.Second, Users: sh.users,
			Connections: int64(sh.users), H2GoAways: int64(s), H2Resets: int64(2 * s), H2Retries: int64(3 * s)}
		reps = append(reps, rec.Report(o, info, "x"))
	}
	got, err := Merge(reps)
	if err != nil {
		t.Fatal(err)
	}
	want := all.Report(loader.Outcome{Started: t0, Elapsed: 9 * time.Second, Users: firstUser,
		Connections: int64(firstUser), H2GoAways: 3, H2Resets: 6, H2Retries: 9}, RunInfo{}, "x")
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	checks := []struct {
		name      string
		got, want float64
	}{
		{"transactions", float64(got.Transactions), float64(want.Transactions)},
		{"elapsed", got.ElapsedTime, want.ElapsedTime},
		{"rate", got.TransactionRate, want.TransactionRate},
		{"p50", got.Percentiles.P50, want.Percentiles.P50},
		{"p99", got.Percentiles.P99, want.Percentiles.P99},
		{"users", float64(got.Users.Count), float64(want.Users.Count)},
		{"per-user mean", got.Users.TransactionsMean, want.Users.TransactionsMean},
		{"per-user stddev", got.Users.TransactionsStddev, want.Users.TransactionsStddev},
		{"timeline length", float64(len(got.Timeline)), float64(len(want.Timeline))},
		{"connections", float64(got.ConnectionsOpened), float64(want.ConnectionsOpened)},
		{"HTTP/2 GOAWAY frames", float64(got.HTTP2GoAways), float64(want.HTTP2GoAways)},
		{"HTTP/2 RST_STREAM frames", float64(got.HTTP2Resets), float64(want.HTTP2Resets)},
		{"HTTP/2 requests sent again", float64(got.HTTP2Retries), float64(want.HTTP2Retries)},
	}
	for _, c := range checks {
		if !near(c.got, c.want) {
			t.Errorf("%s: merged %v, one recording %v", c.name, c.got, c.want)
		}
	}
	for i := range min(len(got.Timeline), len(want.Timeline)) {
		g, w := got.Timeline[i], want.Timeline[i]
		if g.Requests != w.Requests || g.P99 != w.P99 {
			t.Errorf("interval %d: merged %d requests p99 %v, one recording %d, %v", i, g.Requests, g.P99, w.Requests, w.P99)
		}
	}
}

// A merged run, or a combined series, ended as a part that stopped early did: interrupted before
// aborted (with the gate that fired) before stopped at --failures; parts that all ran their
// course keep the first one's reason.
func TestMergeStopReason(t *testing.T) {
	t.Parallel()
	gate := &Abort{Gate: "error_rate>5", Value: 12.5, At: 3.2, Window: 2}
	tests := []struct {
		name      string
		reasons   []StopReason
		want      StopReason
		wantAbort bool
	}{
		{"all completed", []StopReason{StopCompleted, StopCompleted}, StopCompleted, false},
		{"all out of time", []StopReason{StopTimeUp, StopTimeUp, StopTimeUp}, StopTimeUp, false},
		{"last aborted", []StopReason{StopCompleted, StopAborted}, StopAborted, true},
		{"first aborted", []StopReason{StopAborted, StopTimeUp}, StopAborted, true},
		{"failures", []StopReason{StopTimeUp, StopFailures, StopTimeUp}, StopFailures, false},
		{"aborted and failures", []StopReason{StopFailures, StopAborted}, StopAborted, true},
		{"interrupted above all", []StopReason{StopAborted, StopFailures, StopInterrupted}, StopInterrupted, false},
	}
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var shards []Report
			for i, reason := range tt.reasons {
				rec := NewRecorder(targets, Options{})
				rec.Record([]loader.Result{{Status: 200, Latency: time.Millisecond}})
				info := RunInfo{Test: "same", Shard: &ShardInfo{Index: i, Count: len(tt.reasons)}}
				r := rec.Report(loader.Outcome{Started: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Elapsed: time.Second, Users: 1}, info, "x")
				r.Run.StopReason = reason
				if reason == StopAborted {
					r.Run.Abort = gate
				}
				shards = append(shards, r)
			}
			for name, join := range map[string]func([]Report) (Report, error){"merge": Merge, "combine": Combine} {
				got, err := join(shards)
				if err != nil {
					t.Fatal(err)
				}
				if got.Run.StopReason != tt.want || (got.Run.Abort != nil) != tt.wantAbort ||
					(tt.wantAbort && *got.Run.Abort != *gate) {
					t.Errorf("%s: stop %q, abort %+v; want %q, with the gate: %v", name, got.Run.StopReason, got.Run.Abort, tt.want, tt.wantAbort)
				}
			}
		})
	}
}
