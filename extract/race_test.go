//go:build race

package extract

// raceEnabled: the race detector allocates on its own, so allocation counts are only
// meaningful without it.
const raceEnabled = true
