package main

import (
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/stats"
)

// maxLateness reads --max-lateness; nil when not given.
func maxLateness(c *cli.Context) (*time.Duration, error) {
	if !c.IsSet("max-lateness") {
		return nil, nil
	}
	d, err := parseSeconds(c.String("max-lateness"))
	if err != nil {
		return nil, usagef("--max-lateness: %v", err)
	}
	return &d, nil
}

// latenessError says the latest shard started later than --max-lateness allows: exit 1, as a
// failed gate, after the merged result was written.
type latenessError struct {
	late, limit time.Duration
}

func (e latenessError) Error() string {
	return fmt.Sprintf("the latest shard started %s late, more than --max-lateness %s: the shards did not start together",
		e.late.Round(time.Microsecond), e.limit)
}

func (e latenessError) Unwrap() error { return gateError{failed: 1, total: 1} }

// judgeOverlap warns, in one line on stderr, when the shards did not run together (the merged
// figures are then not one load test's), and fails when the latest started more than maxLate
// late (nil: no limit).
func judgeOverlap(o stats.ShardOverlap, maxLate *time.Duration, stderr io.Writer) error {
	if !o.Overlapped {
		if o.Together < 0 {
			fmt.Fprintf(stderr, "webload: warning: the shards did not run together: the latest started %.3f s after the first had ended; the merged result is not one load test\n", -o.Together)
		} else {
			fmt.Fprintf(stderr, "webload: warning: the shards did not run together: all at once for %.3f s, less than half of the shortest shard's %.3f s; the merged result is not one load test\n", o.Together, o.Shortest)
		}
	}
	late := time.Duration(o.Lateness * float64(time.Second))
	if maxLate != nil && late > *maxLate {
		return latenessError{late: late, limit: *maxLate}
	}
	return nil
}
