package run

import (
	"os"
	"runtime/debug"
)

// gcPercent picks the garbage collector's target for a run with this many requests in flight
// at most, over a list of this many targets. Go's default (100) lets the heap grow to twice what is live. With few users the live
// heap is small and garbage is most of the memory, so a higher target saves collector work at
// little cost; with thousands of users the live heap is their buffers and stacks (about 14 KiB
// each), and doubling it would add hundreds of MB. A long URL list is live as well, about 600
// bytes a line (the target, its loader and statistics entries). So the heap may grow by about
// 48 MiB over the estimated live heap, within 25 % to 400 %.
func gcPercent(concurrency, targets int) int {
	live := 12<<20 + 14<<10*int64(concurrency) + 600*int64(targets)
	return int(min(400, max(25, 100*48<<20/live)))
}

// tuneGC applies gcPercent unless the user chose a GOGC of their own.
func tuneGC(concurrency, targets int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent(concurrency, targets))
	}
}
