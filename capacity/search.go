// Package capacity finds how much load a site takes before it breaks its service level: the
// highest open-model rate whose measurement passes every SLO gate. Search is the pure logic
// (double while the SLO holds, then bisect between the last passing and the first failing
// rate, measuring a failure again before going below it and the capacity again before
// settling), a function of the Measure it is given; Watch is the sink of a step measured by
// whoever runs the load (run.SearchCapacity, whose steps are runs like any other): it leaves
// a settle time out of the step's figures and ends a step early when a window of it breaks
// the SLO badly. Both are bounded: a search stops after MaxSteps measurements whatever
// happens, and never offers more than To.
package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"
)

// The defaults of Options' zero fields.
const (
	DefaultFrom      = 10     // req/s: a first step any site serving people holds
	DefaultTo        = 100000 // req/s: beyond one load generator's reach on most machines
	DefaultPrecision = 0.05   // the passing rate is within 5 % of the failing one
	DefaultMaxSteps  = 30     // doubling from 10 to 100 000 takes 14, bisecting 5 more, failures twice, and 1 to confirm
	minRate          = 1.0    // req/s: below this a failing From is not halved further
)

// ErrNoSLO is returned by Search without a gate to search against.
var ErrNoSLO = errors.New("a capacity search needs at least one SLO gate")

// Options bound a search. Rates are in arrivals per second.
type Options struct {
	// From is the first rate measured; 0 means DefaultFrom.
	From float64
	// To caps the rates measured: a site that holds To has a capacity of at least To. 0 means
	// DefaultTo.
	To float64
	// Precision ends the bisection once the first failing rate is within this fraction above
	// the last passing one; 0 means DefaultPrecision.
	Precision float64
	// MaxSteps caps the measurements; 0 means DefaultMaxSteps.
	MaxSteps int
	// Step, when set, is told of each step as it finishes, to print it.
	Step func(Step)
}

func (o Options) withDefaults() Options {
	if o.From <= 0 {
		o.From = DefaultFrom
	}
	if o.To <= 0 {
		o.To = DefaultTo
	}
	o.From = min(o.From, o.To)
	if o.Precision <= 0 {
		o.Precision = DefaultPrecision
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	return o
}

// Measured is one rate's measurement.
type Measured struct {
	// Report is the figures of the step, its settle time left out.
	Report stats.Report
	// EndedEarly is set when the step was stopped because it broke the SLO badly; the step
	// fails whatever Report says.
	EndedEarly bool
	// Partial is set when the step was cut by the end of the search's context: Report holds
	// what was measured until then, which judges nothing.
	Partial bool
}

// Measure measures the load at rate arrivals per second. It returns an error when the step
// could not be measured (the context was cancelled, the site cannot be reached at all), which
// ends the search; with the context's error, the part of the step measured, marked Partial.
type Measure func(ctx context.Context, rate float64) (Measured, error)

// Step is one measured rate and its verdicts.
type Step struct {
	Rate       float64
	Measured   Measured
	Verdicts   []stats.Verdict
	Passed     bool
	EndedEarly bool
	// Inconclusive says why the step could not be judged: no gate failed, and some had too few
	// measurements to hold (see MinSamples). Such a step neither passed nor failed.
	Inconclusive string
	// Partial marks the step the search was interrupted in: it neither passed nor failed.
	Partial bool
	// Again marks a second measurement of a rate: a failure measured again, or the capacity
	// confirmed. The last judged measurement of a rate is its verdict (stats.Capacity.Settle).
	Again bool
}

// failed tells whether the step was judged and broke the SLO.
func (s *Step) failed() bool { return !s.Passed && s.Inconclusive == "" && !s.Partial }

// Result is the outcome of a search.
type Result struct {
	// SLO is what every step was judged by: the gates given, with ErrorCeiling added when
	// none of them bounds the failures (see SLO).
	SLO []gate.Gate
	// Rate is the capacity: the highest rate that passed below the lowest that failed, by the
	// last judged measurement of each rate; 0 when none did.
	Rate float64
	// Steps are in the order they were measured.
	Steps []Step
	// Best indexes the last measurement of Rate, and NextFailed the last of the lowest rate
	// that failed; -1 when there is none (no rate passed; or every rate up to To passed, or
	// the search was cut).
	Best, NextFailed int
	// Capped is set when To itself passed: the capacity is at least Rate.
	Capped bool
	// Interrupted is set when the search's context ended it: the capacity is at least Rate,
	// and InterruptedAt is the rate being measured then (the last step's, when it is Partial).
	Interrupted   bool
	InterruptedAt float64
}

// Search finds the highest rate whose measurement passes every gate of slo, completed by SLO
// (an error ceiling unless slo bounds failures itself). It measures From, doubles the rate
// while the steps pass (up to To), then bisects between the last passing and the first failing
// rate until they are within Precision. When From fails it halves instead, down to 1 req/s.
// One noisy step must not halve the answer: a rate that fails is measured again at once, and
// one that passes then was noise; and before it settles, the search measures the capacity
// again, which then holds only if it passes again. No rate is measured more than twice, and
// the last judged measurement of a rate is its verdict. Search is a pure function of measure.
// It stops after MaxSteps measurements in any case. On an error of measure it
// returns the steps so far with the error; when the context ended the search, the result is
// marked Interrupted, with the step cut short kept as Partial.
func Search(ctx context.Context, slo []gate.Gate, opts Options, measure Measure) (Result, error) {
	res := Result{Best: -1, NextFailed: -1}
	slo, err := SLO(slo)
	if err != nil {
		return res, err
	}
	res.SLO = slo
	opts = opts.withDefaults()
	rate := opts.From
	var sum stats.Capacity // the steps as Settle reads them
	for len(res.Steps) < opts.MaxSteps {
		if err := ctx.Err(); err != nil {
			res.Interrupted, res.InterruptedAt = true, rate
			return res, err
		}
		again := measured(res.Steps, rate) > 0
		m, err := measure(ctx, rate)
		if err != nil {
			if ctx.Err() != nil {
				res.Interrupted, res.InterruptedAt = true, rate
				if m.Partial {
					step := Step{Rate: rate, Measured: m, Partial: true, Again: again}
					res.Steps = append(res.Steps, step)
					if opts.Step != nil {
						opts.Step(step)
					}
				}
			}
			return res, fmt.Errorf("measuring %g req/s: %w", rate, err)
		}
		step := judgeStep(rate, m, slo)
		step.Again = again
		res.Steps = append(res.Steps, step)
		sum.Steps = append(sum.Steps, step.Summary())
		if opts.Step != nil {
			opts.Step(step)
		}
		st := sum.Settle()
		res.Best, res.NextFailed, res.Rate = st.Best, st.Next, 0
		if st.Best >= 0 {
			res.Rate = res.Steps[st.Best].Rate
		}
		next, done := nextRate(&res, st, &opts)
		if done {
			break
		}
		rate = next
	}
	res.Capped = res.Best >= 0 && res.Rate >= opts.To
	return res, nil
}

// measured counts the steps at rate.
func measured(steps []Step, rate float64) int {
	n := 0
	for i := range steps {
		if steps[i].Rate == rate {
			n++
		}
	}
	return n
}

// nextRate chooses the rate after the steps so far, or says the search is over. A first
// failure at a rate is measured again at once. Otherwise the search doubles from its floor
// while nothing failed, halves while nothing passed, and bisects between the floor and the
// lowest failure; a step that could not be judged counts in the floor, as a passing one does (a
// higher rate brings more requests to judge by), but never as a capacity. Once settled, the
// capacity is measured again if it was measured once. A step that measured nothing at all ends
// the search: a higher rate would be a blind guess.
func nextRate(res *Result, st stats.Settled, opts *Options) (next float64, done bool) {
	last := &res.Steps[len(res.Steps)-1]
	switch {
	case last.Measured.Report.Transactions+last.Measured.Report.FailedTransactions == 0:
		return 0, true
	case last.failed() && !last.Again:
		return last.Rate, false
	}
	fail := math.Inf(1)
	if st.Next >= 0 {
		fail = res.Steps[st.Next].Rate
	}
	lo := st.Floor
	switch {
	case st.Next < 0 && lo > 0 && lo < opts.To:
		return min(lo*2, opts.To), false
	case st.Next < 0:
	case lo == 0 && fail/2 >= minRate:
		return fail / 2, false
	case lo > 0 && fail > lo*(1+opts.Precision):
		return (lo + fail) / 2, false
	}
	if st.Best >= 0 && measured(res.Steps, res.Rate) == 1 {
		return res.Rate, false
	}
	return 0, true
}
