package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/stats"
)

// shardFlags split one run over several webload processes, started together; they write into o.
func shardFlags(o *runOptions) []cli.Flag {
	return []cli.Flag{
		typedFlag(&cli.GenericFlag{Name: "shard", Category: catDistributed, Usage: "run part `I/N` of the load (I from 0): users or rate split evenly, each shard with its own slice of the URL schedule; merge the results with webload merge. In a Kubernetes Indexed Job, I defaults to $JOB_COMPLETION_INDEX and N to --shards or $WEBLOAD_SHARDS"}, &o.shard, "", optional(parseShard)),
		&cli.IntFlag{Name: "shards", Destination: &o.shards, Category: catDistributed, Usage: "the number of shards `N` when I comes from $JOB_COMPLETION_INDEX"},
		typedFlag(&cli.GenericFlag{Name: "start-at", Category: catDistributed, Usage: "wait until `TIME` (RFC 3339, e.g. 2026-12-01T10:00:00Z) before starting, so shards start together"}, &o.startAt, "", optional(parseStartAt)),
		typedFlag(&cli.GenericFlag{Name: "start-after", Category: catDistributed, Usage: "wait `DURATION` (e.g. 30s) before starting"}, &o.startAfter, "", optional(secondsFrom(0, "want a duration such as 30s"))),
	}
}

// shardFromFlags reads --shard (or the Kubernetes index) and the planned start into the spec.
func shardFromFlags(c *cli.Context, o *runOptions, s *runSpec, env lookupEnv, p *problems) {
	index, count, err := shardOf(o, env)
	if err != nil {
		p.add("shard", err)
	}
	if c.IsSet("start-at") && c.IsSet("start-after") {
		p.addf("start-at", "give --start-at or --start-after, not both")
	}
	o.startAt.book(p)
	o.startAfter.book(p)
	if o.startAt.text != "" {
		s.StartAt = o.startAt.val
	}
	if o.startAfter.text != "" {
		s.StartAt = time.Now().Add(o.startAfter.val)
	}
	if count <= 1 {
		return
	}
	if s.Repeat > 1 {
		p.addf("shard", "--shard cannot be combined with --repeat: repeat the whole sharded run instead")
	}
	s.Config.Shard, s.Config.Shards = index, count
	s.Info.Shard = &stats.ShardInfo{Index: index, Count: count, PlannedStart: s.StartAt}
}

// shardOf reads I/N from --shard, or I from $JOB_COMPLETION_INDEX with N from --shards or
// $WEBLOAD_SHARDS; 0/1 when the run is not sharded.
func shardOf(o *runOptions, env lookupEnv) (index, count int, err error) {
	if o.shard.text != "" {
		return o.shard.val.index, o.shard.val.count, o.shard.err
	}
	count = o.shards
	if count == 0 {
		if v, ok := env("WEBLOAD_SHARDS"); ok && v != "" {
			if count, err = strconv.Atoi(v); err != nil || count < 1 {
				return 0, 0, fmt.Errorf("$WEBLOAD_SHARDS: want a number of shards (got %q)", v)
			}
		}
	}
	if count <= 1 {
		return 0, 1, nil
	}
	v, ok := env("JOB_COMPLETION_INDEX")
	if !ok {
		return 0, 0, fmt.Errorf("%d shards but no shard index: give --shard I/%d (or run as a Kubernetes Indexed Job)", count, count)
	}
	if index, err = strconv.Atoi(v); err != nil || index < 0 || index >= count {
		return 0, 0, fmt.Errorf("$JOB_COMPLETION_INDEX: want 0..%d (got %q)", count-1, v)
	}
	return index, count, nil
}

// shardIndex is --shard I/N: this process runs part index of count.
type shardIndex struct{ index, count int }

// parseShard reads --shard I/N.
func parseShard(s string) (shardIndex, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
		return shardIndex{}, fmt.Errorf("want I/N with 0 <= I < N, e.g. 0/4 (got %q)", s)
	}
	return shardIndex{index, count}, nil
}

// parseStartAt reads --start-at, an RFC 3339 time.
func parseStartAt(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("want an RFC 3339 time such as 2026-12-01T10:00:00Z (got %q)", s)
	}
	return t, nil
}
