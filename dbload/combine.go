package dbload

import "fmt"

// CombineSeries is one database's summary of runs made one after another (a --repeat series):
// the runs' counts add up, the rate is the summed queries over the summed seconds, the
// connections and lock-wait peaks are the runs' most, the hit ratio is the runs' weighted by
// their queries (by their seconds when the queries are not all known: the reads behind the
// ratio are not kept), and the series follow one another. A count that any run did not measure
// is absent: a sum over some of the runs would pass for the whole series'. The per-transaction
// figures are left for PerTransaction with the series' transactions. runs is not empty.
func CombineSeries(runs []Summary) Summary {
	out := Summary{Source: runs[0].Source}
	sums := counts{}
	var hitSum, hitWeight, timeHit float64
	hitKnown, peaks, peakRuns := true, int64(0), 0
	for i := range runs {
		s := &runs[i]
		if out.Kind == "" {
			// A run that could not read the database does not know what it is.
			out.Kind, out.Version, out.QueriesSource = s.Kind, s.Version, s.QueriesSource
		}
		out.Samples += s.Samples
		out.Failures += s.Failures
		if out.FirstError == "" {
			out.FirstError = s.FirstError
		}
		out.CountersReset = out.CountersReset || s.CountersReset
		out.Seconds += s.Seconds
		out.ConnectionsMax = max(out.ConnectionsMax, s.ConnectionsMax)
		sums.add(i, s)
		if s.LockWaitsPeak && s.LockWaits != nil {
			peaks, peakRuns = max(peaks, *s.LockWaits), peakRuns+1
		}
		if s.BufferHitRatio == nil {
			hitKnown = false
			continue
		}
		timeHit += *s.BufferHitRatio * s.Seconds
		if s.Queries != nil {
			hitSum += *s.BufferHitRatio * float64(*s.Queries)
			hitWeight += float64(*s.Queries)
		}
	}
	sums.into(&out)
	if out.Queries != nil && out.Seconds > 0 {
		out.QueriesPerSec = float64(*out.Queries) / out.Seconds
	}
	switch {
	case peakRuns == len(runs):
		out.LockWaits, out.LockWaitsPeak = &peaks, true
	case peakRuns > 0:
		out.LockWaits = nil // peaks and counts do not add up
	}
	if hitKnown {
		switch {
		case out.Queries != nil && hitWeight > 0:
			r := hitSum / hitWeight
			out.BufferHitRatio = &r
		case out.Seconds > 0:
			r := timeHit / out.Seconds
			out.BufferHitRatio = &r
		}
	}
	for i := range runs {
		out.Series = append(out.Series, runs[i].Series...)
	}
	out.Statements = combineStatements(runs)
	return out
}

// counts sums the optional counts of runs; a count is nil once a run lacks it.
type counts struct {
	queries, slow, rows, locks, deadlocks, tempTables, tempBytes *int64
}

func (c *counts) add(i int, s *Summary) {
	for _, f := range []struct {
		sum **int64
		v   *int64
	}{{&c.queries, s.Queries}, {&c.slow, s.SlowQueries}, {&c.rows, s.RowsRead}, {&c.locks, s.LockWaits},
		{&c.deadlocks, s.Deadlocks}, {&c.tempTables, s.TempDiskTables}, {&c.tempBytes, s.TempBytes}} {
		switch {
		case f.v == nil:
			*f.sum = nil
		case i == 0:
			v := *f.v
			*f.sum = &v
		case *f.sum != nil:
			**f.sum += *f.v
		}
	}
}

func (c *counts) into(s *Summary) {
	s.Queries, s.SlowQueries, s.RowsRead, s.LockWaits = c.queries, c.slow, c.rows, c.locks
	s.Deadlocks, s.TempDiskTables, s.TempBytes = c.deadlocks, c.tempTables, c.tempBytes
}

// MergeShards is one database's summary of a run made by several webload processes at once
// (webload merge). The shards ran at the same time against the same database, so each one's
// reading already counts every shard's queries: adding them up would count the run's queries
// once per shard. It takes one shard's reading instead, the one with the most samples, then the
// widest window (the one that saw most of the run), and says so in Note. The per-transaction
// figures are left for PerTransaction with the merged run's transactions. shards are in shard
// order (shard i at index i) and not empty.
func MergeShards(shards []Summary) Summary {
	best := 0
	for i := range shards {
		s, b := &shards[i], &shards[best]
		if s.Samples > b.Samples || (s.Samples == b.Samples && s.Seconds > b.Seconds) {
			best = i
		}
	}
	out := shards[best]
	out.QueriesPerTransaction, out.RowsReadPerTransaction = nil, nil
	if out.Statements != nil && out.Statements.Unavailable == "" {
		out.Statements = out.Statements.clone()
		out.Statements.perTransaction(0)
	}
	if len(shards) > 1 {
		out.Note = fmt.Sprintf("read by shard %d/%d alone: the shards ran at once against this database, so each read every shard's queries",
			best, len(shards))
	}
	return out
}
