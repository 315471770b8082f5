package stats

import (
	"fmt"
	"time"
)

// ShardOverlap says how a merged run's shards ran together. Shards that did not run together are
// not one load test: each loaded the site alone with its share of the load, and the merged rates
// and percentiles describe a run that never happened. Times are seconds.
type ShardOverlap struct {
	// Lateness is how long after the planned start (--start-at) the latest shard started; for
	// shards without a planned start, how long after the earliest shard.
	Lateness float64 `json:"lateness"`
	// Together is how long every shard was running at once: from the latest shard's start to
	// the earliest shard's end. Negative when a shard started after another had ended. Shards
	// that made no request are left out, here and in Shortest.
	Together float64 `json:"together"`
	// Shortest is the shortest shard's elapsed time.
	Shortest float64 `json:"shortest"`
	// Overlapped is false when the shards ran together for less than half of the shortest
	// shard's run (RanTogether).
	Overlapped bool `json:"overlapped"`
}

// RanTogether says whether shards that were all running at once for together seconds, the
// shortest of them running for shortest seconds, made one load test. The rule is half of the
// shortest shard's run: with less, most of that shard's requests met a site carrying only part
// of the planned load. "The latest started before the earliest ended" is too weak a rule (a
// one-second overlap would pass a five-minute test), and the longest shard is the wrong yardstick
// (a shard stopped early at --failures is short by design, and its stop reason says so).
func RanTogether(together, shortest float64) bool { return together >= shortest/2 }

// shardOverlap measures the shards' overlap from their saved starts and elapsed times; shards
// holds at least one result. A shard that made no request (more shards than users) loaded
// nothing, so it takes no part in the time the shards ran together; it still started, late or
// not.
func shardOverlap(shards []Report) ShardOverlap {
	earliest := shards[0].Run.StartedAt
	var latest, firstEnd time.Time
	var shortest time.Duration
	loaded := 0
	for i := range shards {
		r := &shards[i]
		if r.Run.StartedAt.Before(earliest) {
			earliest = r.Run.StartedAt
		}
		if r.Requests == 0 {
			continue
		}
		elapsed := seconds(r.ElapsedTime)
		end := r.Run.StartedAt.Add(elapsed)
		if loaded == 0 || end.Before(firstEnd) {
			firstEnd = end
		}
		if loaded == 0 || elapsed < shortest {
			shortest = elapsed
		}
		if loaded == 0 || r.Run.StartedAt.After(latest) {
			latest = r.Run.StartedAt
		}
		loaded++
	}
	var late float64
	for i := range shards {
		sh := shards[i].Run.Shard
		l := shards[i].Run.StartedAt.Sub(earliest).Seconds()
		if sh != nil && !sh.PlannedStart.IsZero() {
			l = sh.StartOffset
		}
		late = max(late, l)
	}
	o := ShardOverlap{Lateness: late}
	if loaded > 0 {
		o.Together, o.Shortest = firstEnd.Sub(latest).Seconds(), shortest.Seconds()
	}
	o.Overlapped = RanTogether(o.Together, o.Shortest)
	return o
}

// sane refuses an overlap no merge can have measured: the time all shards ran at once is never
// longer than the shortest shard's run.
func (o *ShardOverlap) sane(at string) error {
	switch {
	case o.Shortest < 0:
		return fmt.Errorf("%srun.shards_overlap.shortest is %g s, below zero", at, o.Shortest)
	case o.Together > o.Shortest:
		return fmt.Errorf("%srun.shards_overlap.together is %g s, longer than its shortest shard's %g s", at, o.Together, o.Shortest)
	}
	return nil
}
