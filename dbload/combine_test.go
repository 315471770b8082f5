package dbload

import (
	"reflect"
	"testing"
	"time"
)

func i64(v int64) *int64 { return &v }

func f64(v float64) *float64 { return &v }

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// run is one run's MySQL reading: q queries over secs seconds, the other counts derived from q
// so that sums are easy to check.
func run(q int64, secs float64, conns int64, hit float64, at time.Time) Summary {
	return Summary{
		Source: "mysql://webload:xxxxx@127.0.0.1:3306/", Kind: KindMySQL, Version: "10.11.6-MariaDB",
		Samples: 3, Seconds: secs, Queries: i64(q), QueriesSource: "Questions", QueriesPerSec: float64(q) / secs,
		QueriesPerTransaction: f64(99), SlowQueries: i64(q / 10), RowsRead: i64(q * 3), RowsReadPerTransaction: f64(99),
		ConnectionsMax: conns, BufferHitRatio: f64(hit), LockWaits: i64(1), Deadlocks: i64(2), TempDiskTables: i64(3),
		Series: []Point{{At: at.Add(time.Duration(secs) * time.Second), Seconds: secs, QueriesPerSec: float64(q) / secs, Connections: conns}},
	}
}

func TestCombineSeries(t *testing.T) {
	t.Parallel()
	a, b := run(100, 10, 4, 90, t0), run(300, 20, 7, 98, t0.Add(time.Minute))
	b.Samples, b.Failures, b.FirstError = 2, 1, "reading mysql: timeout"
	got := CombineSeries([]Summary{a, b})
	want := Summary{
		Source: a.Source, Kind: KindMySQL, Version: a.Version, Samples: 5, Failures: 1, FirstError: "reading mysql: timeout",
		Seconds: 30, Queries: i64(400), QueriesSource: "Questions", QueriesPerSec: 400.0 / 30,
		SlowQueries: i64(40), RowsRead: i64(1200), ConnectionsMax: 7,
		// Weighted by the runs' queries: (100*90 + 300*98) / 400.
		BufferHitRatio: f64((100*90 + 300*98) / 400.0),
		LockWaits:      i64(2), Deadlocks: i64(4), TempDiskTables: i64(6),
		Series: append(append([]Point(nil), a.Series...), b.Series...),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CombineSeries:\n got %+v\nwant %+v", got, want)
	}
}

// A count one run of the series did not measure makes the series' count absent: a sum over some
// runs would pass for the series' whole.
func TestCombineSeriesPartial(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		edit  func(s *Summary)
		check func(t *testing.T, s Summary)
		first bool // edit the first run, not the second
	}{
		{"queries reset", func(s *Summary) { s.Queries, s.QueriesPerSec, s.CountersReset = nil, 0, true }, func(t *testing.T, s Summary) {
			if s.Queries != nil || s.QueriesPerSec != 0 || !s.CountersReset {
				t.Errorf("queries %v, %v/s, reset %v; want absent, 0, reset", s.Queries, s.QueriesPerSec, s.CountersReset)
			}
			// Hit ratios are weighted by time when the queries are not all known.
			if want := (10*90 + 20*98) / 30.0; s.BufferHitRatio == nil || *s.BufferHitRatio != want {
				t.Errorf("hit ratio %v, want %v", s.BufferHitRatio, want)
			}
		}, false},
		{"slow not measured", func(s *Summary) { s.SlowQueries = nil }, func(t *testing.T, s Summary) {
			if s.SlowQueries != nil || s.Queries == nil || *s.Queries != 400 {
				t.Errorf("slow %v, queries %v; want absent, 400", s.SlowQueries, s.Queries)
			}
		}, false},
		{"a run not read", func(s *Summary) { *s = Summary{Source: s.Source, Failures: 3, FirstError: "reading mysql: refused"} }, func(t *testing.T, s Summary) {
			// The series names the database as the runs that read it do, and has no counts.
			if s.Kind != KindMySQL || s.Version == "" || s.QueriesSource != "Questions" || s.Queries != nil || s.Failures != 3 {
				t.Errorf("kind %q, version %q, source %q, queries %v, failures %d", s.Kind, s.Version, s.QueriesSource, s.Queries, s.Failures)
			}
		}, true},
		{"no hit ratio", func(s *Summary) { s.BufferHitRatio = nil }, func(t *testing.T, s Summary) {
			if s.BufferHitRatio != nil {
				t.Errorf("hit ratio %v, want absent", *s.BufferHitRatio)
			}
		}, false},
		{"lock peaks", func(s *Summary) { s.LockWaits, s.LockWaitsPeak = i64(5), true }, func(t *testing.T, s Summary) {
			// A peak of one run and a count of another do not add up: the series has neither.
			if s.LockWaits != nil {
				t.Errorf("lock waits %v, want absent", *s.LockWaits)
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b := run(100, 10, 4, 90, t0), run(300, 20, 7, 98, t0.Add(time.Minute))
			if tc.first {
				tc.edit(&a)
			} else {
				tc.edit(&b)
			}
			tc.check(t, CombineSeries([]Summary{a, b}))
		})
	}
}

// PostgreSQL's lock waits are the most seen waiting at one reading: a series' is its runs' most.
func TestCombineSeriesLockPeaks(t *testing.T) {
	t.Parallel()
	a, b := run(100, 10, 4, 90, t0), run(300, 20, 7, 98, t0)
	a.Kind, b.Kind = KindPostgres, KindPostgres
	a.LockWaits, a.LockWaitsPeak = i64(3), true
	b.LockWaits, b.LockWaitsPeak = i64(2), true
	got := CombineSeries([]Summary{a, b})
	if got.LockWaits == nil || *got.LockWaits != 3 || !got.LockWaitsPeak {
		t.Errorf("lock waits %v (peak %v), want 3 (peak)", got.LockWaits, got.LockWaitsPeak)
	}
}

// Shards ran at the same time against the same database, each reading every shard's queries:
// the merge takes one reading, the one with most samples, then the widest window, and says so.
func TestMergeShards(t *testing.T) {
	t.Parallel()
	a, b, c := run(100, 10, 4, 90, t0), run(110, 11, 5, 91, t0), run(120, 12, 6, 92, t0)
	c.Samples = 2
	got := MergeShards([]Summary{a, b, c})
	if got.Queries == nil || *got.Queries != 110 || got.Seconds != 11 {
		t.Fatalf("took queries %v over %g s, want shard 1's 110 over 11 s", got.Queries, got.Seconds)
	}
	if got.QueriesPerTransaction != nil || got.RowsReadPerTransaction != nil {
		t.Error("per-transaction figures kept; they are the merged run's to set")
	}
	if got.Note != "read by shard 1/3 alone: the shards ran at once against this database, so each read every shard's queries" {
		t.Errorf("note %q", got.Note)
	}
	if got.Samples != b.Samples || got.Failures != 0 || got.ConnectionsMax != 5 {
		t.Errorf("samples %d, failures %d, connections %d: want shard 1's", got.Samples, got.Failures, got.ConnectionsMax)
	}
	if one := MergeShards([]Summary{a}); one.Note != "" || *one.Queries != 100 {
		t.Errorf("one shard: note %q, queries %d", one.Note, *one.Queries)
	}
}
