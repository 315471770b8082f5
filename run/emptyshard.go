package run

import (
	"fmt"

	"github.com/webload/webload/loader"
)

// emptyShardNotice is the line that says a shard has none of the run's load (more shards than
// users, or than requests in the open model), or "" when it has some. Such a shard still runs
// and writes its empty result: failing it would fail a Kubernetes Indexed Job or a Slurm gang
// job whose other shards carry the whole load, and the merge stays exact without its requests.
// The line goes out under -q and -j too, since a shard that loads nothing is worth knowing of.
func emptyShardNotice(c *loader.Config) string {
	if !c.ShardEmpty() {
		return ""
	}
	shard := fmt.Sprintf("%d/%d", c.Shard, c.Shards)
	if c.Rate > 0 {
		return fmt.Sprintf("webload: shard %s has no requests: %d requests dealt over %d shards leave it none; it sends nothing, and its empty result merges with the others'\n",
			shard, c.Reps, c.Shards)
	}
	return fmt.Sprintf("webload: shard %s has no users: %d users split over %d shards leave it none; it sends nothing, and its empty result merges with the others'\n",
		shard, c.Users, c.Shards)
}
