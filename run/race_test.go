//go:build race

package run

// raceEnabled: the race detector makes sync.Pool drop items at random, so allocation counts
// that rest on encoding/json's pooled buffers are only meaningful without it.
const raceEnabled = true
