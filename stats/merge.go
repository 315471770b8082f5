package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/webload/webload/internal/hdrcodec"
)

// ErrNotShards is returned by Merge for results that are not all shards of one run.
var ErrNotShards = errors.New("not the shards of one run")

// Merge builds the result of a run made by several processes at once (--shard I/N): counts are
// sums, percentiles come from the added histograms (overall, per URL, per page and per
// interval), and the elapsed time runs from the first shard's start to the last one's end, so
// rates are the whole run's. Each shard's timeline is placed by when it started. It refuses
// results of different tests, duplicates and missing shards, naming them.
func Merge(shards []Report) (Report, error) {
	if err := checkShards(shards); err != nil {
		return Report{}, err
	}
	shards = slices.Clone(shards)
	slices.SortFunc(shards, func(a, b Report) int { return a.Run.Shard.Index - b.Run.Shard.Index })
	first := &shards[0]
	start, end := first.Run.StartedAt, time.Time{}
	for i := range shards {
		r := &shards[i]
		if len(r.URLs) != len(first.URLs) {
			return Report{}, fmt.Errorf("merge: combine: run %d has %d URLs, run 1 has %d", i+1, len(r.URLs), len(first.URLs))
		}
		if r.TimelineInterval != first.TimelineInterval && first.TimelineInterval > 0 {
			return Report{}, fmt.Errorf("merge: timeline intervals differ: %g s and %g s", first.TimelineInterval, r.TimelineInterval)
		}
		if r.Run.StartedAt.Before(start) {
			start = r.Run.StartedAt
		}
		if e := r.Run.StartedAt.Add(seconds(r.ElapsedTime)); e.After(end) {
			end = e
		}
	}
	f := model{label: first.Label, run: first.Run, interval: first.TimelineInterval}
	if f.interval > 0 {
		f.timeline = []bucket{}
	}
	a := hdrcodec.NewHistAdder()
	for i := range shards {
		r := &shards[i]
		var place func(int, *TimelinePoint) *bucket
		if f.interval > 0 {
			shift := int(math.Round(r.Run.StartedAt.Sub(start).Seconds() / f.interval))
			place = func(k int, _ *TimelinePoint) *bucket { return f.bucketAt(k + shift) }
		}
		if err := f.load(r, a, place); err != nil {
			return Report{}, fmt.Errorf("merge: combine run %d: %w", i+1, err)
		}
		f.run.Shards = append(f.run.Shards, *r.Run.Shard)
	}
	f.run.StopReason, f.run.Abort = earlyStop(shards)
	f.run.Shard = nil
	overlap := shardOverlap(shards)
	f.run.ShardsOverlap = &overlap
	f.run.StartedAt = start
	f.elapsed = end.Sub(start).Seconds()
	f.users = poolUsers(shards)
	rows, err := urlRows(shards, a)
	if err != nil {
		return Report{}, fmt.Errorf("merge: combine %w", err)
	}
	rep := f.report(nil)
	rep.URLs = rows
	addSections(&rep, shards, true)
	if rep.Replay, err = mergeReplays(shards, a); err != nil {
		return Report{}, fmt.Errorf("merge: %w", err)
	}
	return rep, nil
}

// bucketAt returns the timeline's bucket i, growing the timeline as needed.
func (f *model) bucketAt(i int) *bucket {
	for len(f.timeline) <= i {
		f.timeline = append(f.timeline, bucket{start: float64(len(f.timeline)) * f.interval})
	}
	return &f.timeline[i]
}

// checkShards says what keeps results from being merged: a whole run among them, different
// tests or shard counts, a shard given twice, or missing shards.
func checkShards(shards []Report) error {
	if len(shards) == 0 {
		return ErrNothingToCombine
	}
	first := shards[0].Run
	seen := map[int]bool{}
	for i := range shards {
		run := shards[i].Run
		switch {
		case run.Shard == nil:
			return fmt.Errorf("%w: result %d is a whole run, not a shard (made without --shard)", ErrNotShards, i+1)
		case first.Shard != nil && run.Shard.Count != first.Shard.Count:
			return fmt.Errorf("%w: result %d is shard %d of %d, result 1 of %d", ErrNotShards, i+1, run.Shard.Index, run.Shard.Count, first.Shard.Count)
		case run.Test != first.Test:
			return fmt.Errorf("%w: result %d ran a different test (URL list or settings) than result 1", ErrNotShards, i+1)
		case seen[run.Shard.Index]:
			return fmt.Errorf("%w: shard %d is given twice", ErrNotShards, run.Shard.Index)
		}
		seen[run.Shard.Index] = true
	}
	var missing []string
	for i := range first.Shard.Count {
		if !seen[i] {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: missing shard %s of %d", ErrNotShards, strings.Join(missing, ", "), first.Shard.Count)
	}
	return nil
}

// poolUsers combines the per-user fairness of disjoint groups of users.
func poolUsers(shards []Report) UserStats {
	var out UserStats
	var sum, sq float64
	for _, r := range shards {
		n := float64(r.Users.Count)
		out.Count += r.Users.Count
		sum += n * r.Users.TransactionsMean
		sq += n * (r.Users.TransactionsStddev*r.Users.TransactionsStddev + r.Users.TransactionsMean*r.Users.TransactionsMean)
	}
	if out.Count > 0 {
		n := float64(out.Count)
		out.TransactionsMean = sum / n
		out.TransactionsStddev = math.Sqrt(max(0, sq/n-out.TransactionsMean*out.TransactionsMean))
	}
	return out
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
