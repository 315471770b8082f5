package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// shardFlags split one run over several webload processes, started together.
func shardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "shard", Category: catDistributed, Usage: "run part `I/N` of the load (I from 0): users or rate split evenly, each shard with its own slice of the URL schedule; merge the results with webload merge. In a Kubernetes Indexed Job, I defaults to $JOB_COMPLETION_INDEX and N to --shards or $WEBLOAD_SHARDS"},
		&cli.IntFlag{Name: "shards", Category: catDistributed, Usage: "the number of shards `N` when I comes from $JOB_COMPLETION_INDEX"},
		&cli.StringFlag{Name: "start-at", Category: catDistributed, Usage: "wait until `TIME` (RFC 3339, e.g. 2026-12-01T10:00:00Z) before starting, so shards start together"},
		&cli.StringFlag{Name: "start-after", Category: catDistributed, Usage: "wait `DURATION` (e.g. 30s) before starting"},
	}
}

// shardFromFlags reads --shard (or the Kubernetes index) and the planned start into the spec.
func shardFromFlags(c *cli.Context, s *runSpec, env lookupEnv) error {
	index, count, err := shardOf(c, env)
	if err != nil {
		return err
	}
	if c.IsSet("start-at") && c.IsSet("start-after") {
		return usagef("give --start-at or --start-after, not both")
	}
	if v := c.String("start-at"); v != "" {
		if s.startAt, err = time.Parse(time.RFC3339Nano, v); err != nil {
			return usagef("--start-at: want an RFC 3339 time such as 2026-12-01T10:00:00Z (got %q)", v)
		}
	}
	if v := c.String("start-after"); v != "" {
		d, err := parseSeconds(v)
		if err != nil || d < 0 {
			return usagef("--start-after: want a duration such as 30s (got %q)", v)
		}
		s.startAt = time.Now().Add(d)
	}
	if count <= 1 {
		return nil
	}
	if s.repeat > 1 {
		return usagef("--shard cannot be combined with --repeat: repeat the whole sharded run instead")
	}
	s.cfg.Shard, s.cfg.Shards = index, count
	s.info.Shard = &stats.ShardInfo{Index: index, Count: count, PlannedStart: s.startAt}
	return nil
}

// shardOf reads I/N from --shard, or I from $JOB_COMPLETION_INDEX with N from --shards or
// $WEBLOAD_SHARDS; 0/1 when the run is not sharded.
func shardOf(c *cli.Context, env lookupEnv) (index, count int, err error) {
	if v := c.String("shard"); v != "" {
		i, n, ok := strings.Cut(v, "/")
		index, err1 := strconv.Atoi(i)
		count, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
			return 0, 0, usagef("--shard: want I/N with 0 <= I < N, e.g. 0/4 (got %q)", v)
		}
		return index, count, nil
	}
	count = c.Int("shards")
	if count == 0 {
		if v, ok := env("WEBLOAD_SHARDS"); ok && v != "" {
			if count, err = strconv.Atoi(v); err != nil || count < 1 {
				return 0, 0, usagef("$WEBLOAD_SHARDS: want a number of shards (got %q)", v)
			}
		}
	}
	if count <= 1 {
		return 0, 1, nil
	}
	v, ok := env("JOB_COMPLETION_INDEX")
	if !ok {
		return 0, 0, usagef("%d shards but no shard index: give --shard I/%d (or run as a Kubernetes Indexed Job)", count, count)
	}
	if index, err = strconv.Atoi(v); err != nil || index < 0 || index >= count {
		return 0, 0, usagef("$JOB_COMPLETION_INDEX: want 0..%d (got %q)", count-1, v)
	}
	return index, count, nil
}

// testFingerprint identifies what a run loads and how, whatever shard it is: results with the
// same fingerprint can be merged. It also seeds sharded runs that were given no --seed, so every
// shard draws the same random choices.
func testFingerprint(cfg loader.Config, targets []urls.Target, seedGiven bool) string {
	h := sha256.New()
	type target struct {
		Method, URL, ContentType string
		Body                     []byte
		Weight                   float64
	}
	cfg.Shard, cfg.Shards = 0, 0
	cfg.BatchSize, cfg.FlushInterval = 0, 0 // how results are batched changes nothing sent
	if !seedGiven {
		cfg.Seed = 0
	}
	// The bytes are those of encoding {"Config":cfg,"Targets":[...]} at once, which older
	// fingerprints are, but written a target at a time: a million-line list encoded whole
	// took hundreds of MB. Config and targets are plain data; encoding them cannot fail.
	c, _ := json.Marshal(cfg)
	h.Write([]byte(`{"Config":`))
	h.Write(c)
	h.Write([]byte(`,"Targets":`))
	if len(targets) == 0 {
		h.Write([]byte("null"))
	}
	var buf []byte
	for i, t := range targets {
		buf = buf[:0]
		if i == 0 {
			buf = append(buf, '[')
		} else {
			buf = append(buf, ',')
		}
		b, _ := json.Marshal(target{t.Method, t.URL, t.ContentType, t.Body, t.Weight})
		h.Write(append(buf, b...))
	}
	if len(targets) > 0 {
		h.Write([]byte("]"))
	}
	h.Write([]byte("}\n"))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// seedFromFingerprint turns a fingerprint into a seed all shards share.
func seedFromFingerprint(fp string) uint64 {
	b, _ := hex.DecodeString(fp)
	return binary.BigEndian.Uint64(b[:8])
}

// waitForStart sleeps until the planned start, or until ctx ends.
func waitForStart(ctx context.Context, at time.Time) error {
	if at.IsZero() {
		return nil
	}
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the start at %s: %w", at.Format(time.RFC3339), ctx.Err())
	}
}
