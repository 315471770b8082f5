package main

import (
	"fmt"
	"io"

	"github.com/webload/webload/loader"
)

// unboundedNote is what a run without an end of its own says on stderr as it starts, -q or not:
// like siege's, such a run goes on until it is interrupted, which a user who forgot -r or -t
// would otherwise find out only by waiting.
const unboundedNote = "webload: no -r or -t given: the run goes on until interrupted (Ctrl-C stops it and reports)"

// noteUnbounded says so when cfg sets no end: no repetitions (with --rate, -r is the total),
// no time limit, not "-r once".
func noteUnbounded(cfg *loader.Config, stderr io.Writer) {
	if cfg.Once || cfg.Reps > 0 || cfg.Duration > 0 {
		return
	}
	fmt.Fprintln(stderr, unboundedNote)
}
