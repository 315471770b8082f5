package run

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// headroom is how far the heap may grow over what is live before the collector runs. A run
// makes little garbage per request (its results are small values, pages are parsed once and
// their buffers are shared), so collecting every 8 MiB, every second or two at 10,000 pages a
// second, costs about 1 % of a core, while a fixed factor of a large live heap (200
// browser-like users hold about 20 MB) would let the heap grow by another 60 MB.
const headroom = 8 << 20

// maxGrowth bounds how far a large live heap may grow before the collector runs: 25 % of the
// 450 MB a 1 000 000-URL list holds while it is reported would be another 110 MB resident.
// Each collection of such a heap costs about 0.2 s of CPU, so one per 64 MiB allocated is rare
// (a run's requests allocate a few MB a second).
const maxGrowth = 64 << 20

// percentOver returns the collector's target for a heap with live bytes live: the percent that
// lets it grow by headroom, within 25 % (thousands of users, long URL lists: collections stay
// rare) and 400 % (a tiny heap: collections stay rare too, at little memory); over 256 MiB
// live, the heap grows by maxGrowth, and at least 10 %.
func percentOver(live uint64) int {
	live = max(live, 1)
	floor := max(10, min(25, 100*maxGrowth/live))
	return int(min(400, max(floor, 100*headroom/live)))
}

// gcPercent picks the collector's target before a run, when nothing is measured yet, for this
// many requests in flight at most over a list of this many targets. The live heap is then
// estimated: about 12 MiB before the first request; each user's buffers and stack, about
// 14 KiB; a URL list, about 600 bytes a line (the target, its loader and statistics entries).
func gcPercent(concurrency, targets int) int {
	live := 12<<20 + 14<<10*uint64(concurrency) + 600*uint64(targets)
	return percentOver(live)
}

// tuneGC sets the collector's target from gcPercent, then follows the live heap each
// collection measures until ctx ends or stop is called, unless the user chose a GOGC of their
// own. The estimate alone can be far off: the parse cache and the fingerprints grow with the
// pages a run meets.
func tuneGC(ctx context.Context, concurrency, targets int) (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	percent := gcPercent(concurrency, targets)
	debug.SetGCPercent(percent)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The live heap changes only at a collection, a few times a second at most.
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 || sample[0].Value.Uint64() == 0 {
				continue
			}
			if p := percentOver(sample[0].Value.Uint64()); p != percent {
				percent = p
				debug.SetGCPercent(p)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
