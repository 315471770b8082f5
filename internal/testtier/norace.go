//go:build !race

package testtier

// raceEnabled says whether the race detector is on.
const raceEnabled = false
