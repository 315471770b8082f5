package run

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// ErrLadder refuses a ladder of users in the open model, whose load is its rate, and in a
// sharded run, whose shards could not keep their steps in step.
var ErrLadder = errors.New("a ladder of users is for the closed model of one machine: not with a rate or shards")

// ladder makes spec.Ladder's steps one after the other, each like a run of its own: a series
// of spec.Repeat runs at the step's number of users, everything else (-r, -t, -d, the URLs) as
// set. The server gets spec.RepeatPause to settle before each step after the first, so a step
// does not inherit the last one's queues. An interrupted or aborted step ends the ladder; the
// steps measured so far, that one included, are the result (see stats.Ladder).
func ladder(ctx context.Context, spec *Spec, out *runIO) (stats.Report, seriesEnd, error) {
	var steps []stats.Report
	var end seriesEnd
	n := len(spec.Ladder)
	for i, users := range spec.Ladder {
		if i > 0 && !pauseBetweenRuns(ctx, spec.RepeatPause) {
			end.interrupted = true
			break
		}
		step := *spec
		step.Config.Users, step.Info.Users, step.step = users, users, float64(users)
		if out.talk {
			fmt.Fprintf(out.stderr, "** step %d of %d: %d users\n", i+1, n, users)
		}
		rep, stepEnd, err := series(ctx, &step, out, i == 0)
		if stoppedBeforeLoad(err) && len(steps) > 0 {
			end.interrupted = true // the steps made so far are the result
			break
		}
		if err != nil {
			return stats.Report{}, end, fmt.Errorf("ladder step %d (%d users): %w", i+1, users, err)
		}
		steps = append(steps, rep)
		if out.talk {
			fmt.Fprintf(out.stderr, "Step %d of %d: %d users, %d transactions, %.2f trans/sec, p95 %.3f ms, %d failed\n",
				i+1, n, users, rep.Transactions, rep.TransactionRate, rep.Percentiles.P95*1000, rep.FailedTransactions)
		}
		if stepEnd.interrupted || stepEnd.aborted {
			end = stepEnd
			break
		}
	}
	rep, err := stats.Ladder(steps)
	return rep, end, err
}

// ladderUsers names a ladder's steps for the banner: "a ladder of 10, 20, 40 users".
func ladderUsers(steps []int) string {
	n := make([]string, len(steps))
	for i, u := range steps {
		n[i] = strconv.Itoa(u)
	}
	return "a ladder of " + strings.Join(n, ", ") + " users"
}
