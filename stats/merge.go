package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrNotShards is returned by Merge for results that are not all shards of one run.
var ErrNotShards = errors.New("not the shards of one run")

// Merge builds the result of a run made by several processes at once (--shard I/N): counts are
// sums, percentiles come from the added histograms (overall, per URL, per page and per
// interval), and the elapsed time runs from the first shard's start to the last one's end, so
// rates are the whole run's. It refuses results of different tests, duplicates and missing
// shards, naming them.
func Merge(shards []Report) (Report, error) {
	if err := checkShards(shards); err != nil {
		return Report{}, err
	}
	shards = slices.Clone(shards)
	slices.SortFunc(shards, func(a, b Report) int { return a.Run.Shard.Index - b.Run.Shard.Index })
	out, err := Combine(shards)
	if err != nil {
		return Report{}, fmt.Errorf("merge: %w", err)
	}
	out.Repeats = nil

	start, end := shards[0].Run.StartedAt, time.Time{}
	var busy float64
	for i := range shards {
		r := &shards[i]
		if r.Run.StartedAt.Before(start) {
			start = r.Run.StartedAt
		}
		if e := r.Run.StartedAt.Add(seconds(r.ElapsedTime)); e.After(end) {
			end = e
		}
		busy += r.Concurrency * r.ElapsedTime
		out.Run.Shards = append(out.Run.Shards, *r.Run.Shard)
	}
	out.Run.Shard = nil
	out.Run.StartedAt = start
	out.ElapsedTime = end.Sub(start).Seconds()
	out.TransactionRate, out.Throughput, out.Concurrency = 0, 0, 0
	if out.ElapsedTime > 0 {
		out.TransactionRate = float64(out.Transactions) / out.ElapsedTime
		out.Throughput = out.DataTransferred / out.ElapsedTime
		out.Concurrency = busy / out.ElapsedTime
	}
	out.Users = poolUsers(shards)
	if out.Timeline, err = mergeTimelines(shards, start); err != nil {
		return Report{}, fmt.Errorf("merge: %w", err)
	}
	if out.Schedule, err = mergeSchedules(shards); err != nil {
		return Report{}, fmt.Errorf("merge: %w", err)
	}
	out.SteadyState = nil // per-shard ramps end at different moments; not merged
	return out, nil
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

// mergeTimelines adds the shards' intervals that cover the same time, placing each shard's
// timeline by when it started.
func mergeTimelines(shards []Report, start time.Time) ([]TimelinePoint, error) {
	interval := shards[0].TimelineInterval
	if interval <= 0 {
		return nil, nil
	}
	type acc struct {
		p    TimelinePoint
		hist *histogramAcc
	}
	var out []acc
	for _, r := range shards {
		if r.TimelineInterval != interval {
			return nil, fmt.Errorf("timeline intervals differ: %g s and %g s", interval, r.TimelineInterval)
		}
		shift := int(math.Round(r.Run.StartedAt.Sub(start).Seconds() / interval))
		for k, p := range r.Timeline {
			i := k + shift
			for len(out) <= i {
				out = append(out, acc{p: TimelinePoint{Start: float64(len(out)) * interval}, hist: newHistogramAcc()})
			}
			a := &out[i]
			a.p.Requests += p.Requests
			a.p.Transactions += p.Transactions
			a.p.Successful += p.Successful
			a.p.Failed += p.Failed
			a.p.Bytes += p.Bytes
			a.p.Max = max(a.p.Max, p.Max)
			if err := a.hist.add(p.Histogram); err != nil {
				return nil, fmt.Errorf("timeline at %g s: %w", p.Start, err)
			}
		}
	}
	points := make([]TimelinePoint, len(out))
	for i, a := range out {
		points[i] = a.p
		if a.hist.n > 0 {
			points[i].P50 = min(quantile(a.hist.h, 50), a.p.Max)
			points[i].P90 = min(quantile(a.hist.h, 90), a.p.Max)
			points[i].P99 = min(quantile(a.hist.h, 99), a.p.Max)
			points[i].Histogram = encode(a.hist.h)
		}
	}
	return points, nil
}

// mergeSchedules adds the open model's accounts of the shards; nil in the closed model.
func mergeSchedules(shards []Report) (*Schedule, error) {
	var out *Schedule
	lags := newHistogramAcc()
	var lagSum, waitSum float64
	for _, r := range shards {
		s := r.Schedule
		if s == nil {
			continue
		}
		if out == nil {
			out = &Schedule{Rate: s.Rate}
		}
		out.Sent += s.Sent
		out.Unsent += s.Unsent
		out.Delayed += s.Delayed
		out.Users += s.Users
		out.MaxUsers += s.MaxUsers
		out.LagMax = max(out.LagMax, s.LagMax)
		out.DelayedWaitMax = max(out.DelayedWaitMax, s.DelayedWaitMax)
		lagSum += s.LagMean * float64(s.Sent)
		waitSum += s.DelayedWaitMean * float64(s.Delayed)
		if err := lags.add(s.Histogram); err != nil {
			return nil, fmt.Errorf("schedule: %w", err)
		}
	}
	if out == nil {
		return nil, nil
	}
	if out.Sent > 0 {
		out.LagMean = lagSum / float64(out.Sent)
		out.LagP50 = min(quantile(lags.h, 50), out.LagMax)
		out.LagP99 = min(quantile(lags.h, 99), out.LagMax)
	}
	if out.Delayed > 0 {
		out.DelayedWaitMean = waitSum / float64(out.Delayed)
	}
	out.Histogram = encode(lags.h)
	return out, nil
}

// writeShards says, in the text report, which shard a result is or which shards it merges.
func writeShards(b *strings.Builder, rep *Report) {
	if sh := rep.Run.Shard; sh != nil {
		fmt.Fprintf(b, "Shard:\t\t\t%12s of a sharded run (merge the shards' results with webload merge)", fmt.Sprintf("%d/%d", sh.Index, sh.Count))
		if !sh.PlannedStart.IsZero() {
			fmt.Fprintf(b, "; started %.3f ms after the planned start", sh.StartOffset*1000)
		}
		b.WriteString("\n")
	}
	if n := len(rep.Run.Shards); n > 0 {
		late := 0.0
		for _, sh := range rep.Run.Shards {
			late = max(late, sh.StartOffset)
		}
		fmt.Fprintf(b, "Shards:\t\t\t%12d merged; the latest started %.3f ms after the planned start\n", n, late*1000)
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
