package capacity

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"
)

// ErrorCeiling is the gate a search adds to an SLO that bounds no failures: a server that
// answers 503 at once is fast, and its steps would pass any latency gate on the few requests
// it did serve.
const ErrorCeiling = "error_rate<1"

// ErrBadSLO is returned for a gate that cannot judge a step of a search.
var ErrBadSLO = errors.New("not a gate a capacity search can use")

// errorFigures are the figures whose gates bound a step's failures. A gate on one of them, on
// the whole step (not on a url:), is the user's own error gate and keeps ErrorCeiling out; a
// gate on one URL, or on login or extract failures, bounds only part of the failures.
var errorFigures = []string{"error_rate", "availability", "failed"}

// CheckGate tells whether a search can hold its steps to g. A search assumes that a heavier
// load makes a gate harder to keep, so a gate must bound a figure that load makes worse, on
// the side where it gets too bad: an upper bound on a figure where lower is better (latencies,
// error_rate, failed, concurrency), a lower bound on a share where higher is better
// (availability). Refused are:
//   - gates on what a heavier load makes more of, rates and counts of work done (trate,
//     transactions, successful, requests, throughput, capacity): any bound on them is kept
//     better, or only worse, by the load itself rather than by how well the site keeps up;
//   - bounds on the good side (p95>500ms, rtime>=1s, availability<99), which a heavier load
//     makes easier to keep;
//   - == and !=, which no rate keeps for a reason;
//   - the elapsed time, which the search sets (--step-time);
//   - gates that every value or no value keeps (error_rate<=100, availability>=0, p95<0).
//
// This is the one place the rule is written; the command refuses such gates at --slo.
func CheckGate(g gate.Gate) error {
	f, ok := stats.LookupFigure(g.Metric)
	if !ok {
		return fmt.Errorf("%w: %s: unknown figure %q", ErrBadSLO, g.Expr, g.Metric)
	}
	share := f.Kind == stats.FigurePercent
	upper := g.Op == "<" || g.Op == "<="
	lower := g.Op == ">" || g.Op == ">="
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrBadSLO, g.Expr, fmt.Sprintf(format, args...))
	}
	switch {
	case f.HigherIsBetter && !share:
		return bad("%s grows with the load offered, so no bound on it tells how well the site keeps up; bound a latency (p95<500ms), error_rate or availability", f.Name)
	case f.Name == "elapsed":
		return bad("the search sets the time of each step (--step-time)")
	case !upper && !lower:
		return bad("%s compares exactly; an SLO bounds the bad side, with < or <=, or > or >= for availability", g.Op)
	case f.HigherIsBetter && upper:
		return bad("a heavier load lowers %s, so an upper bound only gets easier to keep; write a lower bound such as %s>99", f.Name, f.Name)
	case !f.HigherIsBetter && lower:
		return bad("a heavier load raises %s, so a lower bound only gets easier to keep; write an upper bound such as %s<%s", f.Name, f.Name, example(f))
	}
	lo, hi := 0.0, math.Inf(1) // every figure a search can bound is 0 or more; shares are 100 at most
	if share {
		hi = 100
	}
	v := g.Value
	always := (g.Op == "<" && v > hi) || (g.Op == "<=" && v >= hi) || (g.Op == ">" && v < lo) || (g.Op == ">=" && v <= lo)
	never := (g.Op == "<" && v <= lo) || (g.Op == "<=" && v < lo) || (g.Op == ">" && v >= hi) || (g.Op == ">=" && v > hi)
	switch {
	case always:
		return bad("every step keeps it, whatever the load")
	case never:
		return bad("no step can keep it")
	}
	return nil
}

// example is a limit to suggest for an upper bound on f.
func example(f stats.Figure) string {
	switch f.Kind {
	case stats.FigureTime:
		return "500ms"
	case stats.FigurePercent:
		return "1"
	}
	return "10"
}

// SLO checks every gate of an SLO for a search (CheckGate) and returns them with ErrorCeiling
// added when none bounds the failures of the whole step (errorFigures). The result is what
// each step is judged by, and what the search prints and saves.
func SLO(gates []gate.Gate) ([]gate.Gate, error) {
	if len(gates) == 0 {
		return nil, ErrNoSLO
	}
	var errs []error
	bounded := false
	for _, g := range gates {
		if err := CheckGate(g); err != nil {
			errs = append(errs, err)
			continue
		}
		f, _ := stats.LookupFigure(g.Metric)
		bounded = bounded || (g.URL == "" && slices.Contains(errorFigures, f.Name))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := slices.Clone(gates)
	if !bounded {
		ceiling, err := gate.ParseGate(ErrorCeiling)
		if err != nil {
			panic("capacity: ErrorCeiling does not parse: " + err.Error()) // a programmer's mistake
		}
		out = append(out, ceiling)
	}
	return out, nil
}

// MinSamples is the fewest measurements a gate's verdict on a step rests on (Gate.Samples:
// transactions for a latency, transactions and failures for the others). A gate on fewer is
// inconclusive: 0 failures of 5 requests says little of an error ceiling of 1 %, and the p95 of
// 5 transactions is their slowest.
const MinSamples = 20

// MinStepTime is the shortest step a search measures: a step of less holds too few requests
// at the rates a search starts from to judge, and its figures are mostly the start of the
// run and the wait for the requests in flight at its end.
const MinStepTime = time.Second

// needs is how many measurements g's verdict needs: MinSamples, and for a percentile pN at least
// 100/(100-N) transactions, so that the slowest (100-N) % of them hold one at least: p95 needs
// 20, p99 100, p99.9 1 000.
func needs(g gate.Gate) int64 {
	n := int64(MinSamples)
	if f, ok := stats.LookupFigure(g.Metric); ok {
		if q, ok := f.Quantile(); ok && q < 100 {
			n = max(n, int64(math.Ceil(100/(100-q)-1e-9)))
		}
	}
	return n
}

// judge checks a measurement against the SLO. A gate with fewer measurements than it needs is
// inconclusive, whatever its value; the step fails when it ended early or a gate it had enough
// measurements for failed, passes when every gate held, and is inconclusive otherwise.
func judgeStep(rate float64, m Measured, slo []gate.Gate) Step {
	rep := &m.Report
	v := gate.CheckGates(rep, slo)
	why := ""
	for i, g := range slo {
		have, need := g.Samples(rep), needs(g)
		if have >= need {
			continue
		}
		noun := "requests"
		if f, ok := stats.LookupFigure(g.Metric); ok && f.Latency {
			noun = "transactions"
		}
		name := g.Metric
		if g.URL != "" {
			name = "url:" + g.URL + " " + name
		}
		reason := fmt.Sprintf("%d %s, %s needs %d", have, noun, name, need)
		v[i].Passed, v[i].Inconclusive = false, true
		v[i].Text = fmt.Sprintf("%s: %s: INCONCLUSIVE", v[i].Check, reason)
		if why == "" {
			why = reason
		}
	}
	step := Step{Rate: rate, Measured: m, Verdicts: v, EndedEarly: m.EndedEarly}
	switch {
	case m.EndedEarly || stats.Failed(v) > 0:
	case stats.CountInconclusive(v) > 0:
		step.Inconclusive = why
	default:
		step.Passed = true
	}
	return step
}
