package loader

import (
	"maps"
	"slices"
	"testing"
	"time"
)

// The shards of a run together send exactly the whole run's requests: the same URLs as often,
// and in the open model the same schedule.
func TestShardsMakeTheWholeRun(t *testing.T) {
	srv := newHitServer(t, nil)
	cases := []struct {
		name string
		cfg  Config
	}{
		{"closed", Config{Users: 7, Reps: 9}},
		{"closed, fewer users than shards", Config{Users: 2, Reps: 5}},
		{"closed, once", Config{Users: 3, Once: true}},
		{"closed, random", Config{Users: 5, Reps: 6, Random: true, Seed: 7}},
		{"open", Config{Rate: 2000, MaxUsers: 20, Reps: 101}},
		{"open, random", Config{Rate: 2000, MaxUsers: 20, Reps: 60, Random: true, Seed: 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			whole, intended := shardRun(t, tc.cfg, 0, 0, srv)
			for _, n := range []int{2, 3, 4} {
				sum := map[string]int{}
				var times []time.Duration
				for s := range n {
					hits, ts := shardRun(t, tc.cfg, s, n, srv)
					for k, v := range hits {
						sum[k] += v
					}
					times = append(times, ts...)
				}
				if !maps.Equal(sum, whole) {
					t.Errorf("%d shards sent %v, the whole run %v", n, sum, whole)
				}
				slices.Sort(times)
				if tc.cfg.Rate > 0 && !slices.Equal(times, intended) {
					t.Errorf("%d shards: the intended send times differ from the whole run's", n)
				}
			}
		})
	}
}

// shardRun runs shard s of n and returns the requests the server saw by path, and the intended
// send times in the open model, sorted.
func shardRun(t *testing.T, cfg Config, s, n int, srv *hitServer) (map[string]int, []time.Duration) {
	t.Helper()
	cfg.Shard, cfg.Shards = s, n
	before := srv.snapshot()
	results, _ := run(t, cfg, pageTargets(t, srv.URL, 10))
	after := srv.snapshot()
	for k := range after {
		after[k] -= before[k]
		if after[k] == 0 {
			delete(after, k)
		}
	}
	var times []time.Duration
	if cfg.Rate > 0 {
		for _, r := range results {
			times = append(times, r.Intended)
		}
		slices.Sort(times)
	}
	return after, times
}

func TestShardValidation(t *testing.T) {
	for _, c := range []Config{{Users: 1, Shard: 2, Shards: 2}, {Users: 1, Shard: -1, Shards: 2}, {Users: 1, Shards: -1}} {
		c.Timeout = time.Second
		if err := c.Validate(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// ShardEmpty says exactly which shards send nothing: with more shards than users (closed model)
// or than requests (open model), and never for a whole run or a run without a request count.
func TestShardEmpty(t *testing.T) {
	srv := newHitServer(t, nil)
	cases := []struct {
		name string
		cfg  Config
		want []bool // by shard, of len(want) shards
	}{
		{"closed, 2 users over 4 shards", Config{Users: 2, Reps: 3}, []bool{true, false, true, false}},
		{"closed, 1 user over 3 shards", Config{Users: 1, Reps: 2}, []bool{true, true, false}},
		{"closed, as many users as shards", Config{Users: 3, Reps: 2}, []bool{false, false, false}},
		{"open, 2 requests over 4 shards", Config{Rate: 1000, MaxUsers: 2, Reps: 2}, []bool{false, false, true, true}},
		{"open, 4 requests over 4 shards", Config{Rate: 1000, MaxUsers: 1, Reps: 4}, []bool{false, false, false, false}},
		{"whole run", Config{Users: 1, Reps: 1}, []bool{false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.want)
			for s := range n {
				cfg := tc.cfg
				if n > 1 {
					cfg.Shard, cfg.Shards = s, n
				}
				hits, _ := shardRun(t, cfg, cfg.Shard, cfg.Shards, srv)
				if got := cfg.ShardEmpty(); got != tc.want[s] || got != (len(hits) == 0) {
					t.Errorf("shard %d/%d: ShardEmpty %v, want %v; it sent %v", s, n, got, tc.want[s], hits)
				}
			}
		})
	}
	if (&Config{Rate: 1000, MaxUsers: 1, Duration: time.Second, Shard: 3, Shards: 4}).ShardEmpty() {
		t.Error("an open run bounded by time has requests for every shard")
	}
}
