package stats

import (
	"errors"
	"fmt"
	"math"
)

// ErrNoSteps is returned by Ladder for an empty list.
var ErrNoSteps = errors.New("a ladder needs at least one step")

// LittleTolerance is how far a step's Little's law ratio may stray from 1 and still read "ok":
// beyond it, the users spent a noticeable share of their time outside the requests measured
// (failed requests, the load generator's own work, a ramp), so the step did not make the load
// it names.
const LittleTolerance = 0.10

// Ladder builds the result of a concurrency ladder (-c 10,20,40): steps made one after the
// other, each a whole run (or --repeat series) at its own number of users, kept in Steps. The
// top-level figures are the whole ladder's, as Combine makes them: every request counted once,
// percentiles over all of them. So the totals, the accounting check, the history and the gates
// read a ladder like any run, and each step keeps the figures of its own load. Run.Users is
// the most users any step had. One step is a ladder too: one that was stopped after its first.
func Ladder(steps []Report) (Report, error) {
	if len(steps) == 0 {
		return Report{}, ErrNoSteps
	}
	rep, err := Combine(steps)
	if err != nil {
		return Report{}, fmt.Errorf("ladder: %w", err)
	}
	rep.Repeats = nil // the steps are not repeats of one run
	rep.Steps = steps
	rep.Users = ladderUsers(steps)
	rep.Run.Users = rep.Users.Count
	return rep, nil
}

// ladderUsers is the fairness of a ladder: the mean and spread of a user's transactions within
// its own step, pooled over every user of every step. Combine's sum of means would treat the
// steps' users as the same users running on.
func ladderUsers(steps []Report) UserStats {
	var out UserStats
	var users, transactions, variance float64
	for i := range steps {
		u := steps[i].Users
		out.Count = max(out.Count, u.Count)
		users += float64(u.Count)
		transactions += u.TransactionsMean * float64(u.Count)
		variance += u.TransactionsStddev * u.TransactionsStddev * float64(u.Count)
	}
	if users > 0 {
		out.TransactionsMean = transactions / users
		out.TransactionsStddev = math.Sqrt(variance / users)
	}
	return out
}

// Little is a step's Little's law ratio, X × (R + Z) / N: the transaction rate X times the time
// a user takes per transaction (the response time R plus the mean pause Z, half of -d's bound)
// over the N users that made the load. A closed model's users are always either waiting on a
// request or pausing, so the ratio is 1 when the figures account for all their time; below 1,
// time went elsewhere (failed requests, the load generator itself, a ramp). It is 0 for an
// open-model run, which has no fixed number of users, and for a run without users.
func (r *Report) Little() float64 {
	if r.Run.Model == ModelOpen || r.Run.Users <= 0 {
		return 0
	}
	return r.TransactionRate * (r.ResponseTime + r.Run.Delay/2) / float64(r.Run.Users)
}
