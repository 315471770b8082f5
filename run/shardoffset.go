package run

import (
	"context"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// shardOffset adds to a shard's result how late it started after the planned start
// (--start-at), which tells whether the shards loaded the site together.
type shardOffset struct{}

func (shardOffset) start(context.Context, *runState) error { return nil }

func (shardOffset) wrap(next loader.Sink, _ *runState) loader.Sink { return next }

func (shardOffset) finish(*runState) section {
	return func(rep *stats.Report) {
		sh := rep.Run.Shard
		if sh == nil || sh.PlannedStart.IsZero() {
			return
		}
		s := *sh
		s.StartOffset = rep.Run.StartedAt.Sub(s.PlannedStart).Seconds()
		rep.Run.Shard = &s
	}
}
