// Command changerates measures, on seeded nightly histories, how often the rules of
// `webload compare --history` raise a false alarm and find a change: the median rule that
// judges the newest night against the window, and the change points (package changepoint)
// with the --max-regression gate on the newest segment. Each history is 20 nights of a p95 of
// 500 ms with Gaussian noise of 30 ms; a nightly job runs compare every night from the 6th on
// (--last 30, --min-history 5, --max-regression p95=10%). It prints the Markdown table that
// docs/nightly.md shows; the numbers depend only on -histories and the seeds.
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/webload/webload/changepoint"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

const (
	nights = 20
	window = 30 // --last
	base   = 0.5
	noise  = 0.03
)

// truth is a change a history really has: the night it begins (from 1) and whether it is a
// regression.
type truth struct {
	night int
	worse bool
}

// scenario is one row of the table: how its histories are made and what they really hold.
type scenario struct {
	name    string
	shift   func(night int) float64 // added to the p95 on a night, in seconds
	changes []truth
	// outlier is a night something else ran on the site (0 for none): it is slow, but
	// nothing changed.
	outlier int
	drift   bool // the change is gradual: any regression found counts
}

func step(from int, by float64) func(int) float64 {
	return func(n int) float64 {
		if n >= from {
			return by
		}
		return 0
	}
}

var scenarios = []scenario{
	{name: "no change", shift: step(99, 0)},
	{name: "one outlier night (+600 ms on night 10)", shift: step(99, 0), outlier: 10},
	{name: "+100 ms step at night 13", shift: step(13, 0.1), changes: []truth{{13, true}}},
	{name: "+200 ms step at night 13", shift: step(13, 0.2), changes: []truth{{13, true}}},
	{name: "+200 ms step at night 13, +600 ms noisy nights 15 and 18", changes: []truth{{13, true}},
		shift: func(n int) float64 {
			s := step(13, 0.2)(n)
			if n == 15 || n == 18 {
				s += 0.6
			}
			return s
		}},
	{name: "slow drift (+10 ms a night)", shift: func(n int) float64 { return 0.01 * float64(n-1) }, drift: true,
		changes: []truth{{2, true}}},
	{name: "+200 ms on nights 8-13, then reverted", changes: []truth{{8, true}, {14, false}},
		shift: func(n int) float64 {
			if n >= 8 && n < 14 {
				return 0.2
			}
			return 0
		}},
}

// tally counts, for one rule, the histories in which it did each thing.
type tally struct {
	thatNight int // red on the night of the first change (or the outlier night)
	fromIt    int // red on some night from the first change on (drift: any night)
	later     int // red on some night after the first change (or the outlier night)
	before    int // red on some night before the first change (no change: any night)
}

// listed counts the change points at night 20.
type listed struct {
	found    int // every true change listed within a night of where it began, the right way
	spurious int // a change listed that is none of the true ones
}

func main() {
	histories := flag.Int("histories", 1000, "histories per case")
	p := flag.Float64("p", changepoint.DefaultP, "significance of a change point (compare --change-p)")
	flag.Parse()
	cfg := changepoint.DefaultConfig()
	cfg.P = *p
	if err := run(os.Stdout, *histories, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "changerates:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, histories int, cfg changepoint.Config) error {
	type row struct {
		sc              scenario
		old, cp, either tally
		ls              listed
	}
	var rows []row
	for k, sc := range scenarios {
		r := row{sc: sc}
		for seed := range uint64(histories) {
			p95 := history(sc, seed, uint64(k))
			o, c, e, l, err := judgeNights(sc, p95, cfg)
			if err != nil {
				return fmt.Errorf("%s, seed %d: %w", sc.name, seed, err)
			}
			r.old.add(o)
			r.cp.add(c)
			r.either.add(e)
			r.ls.found += l.found
			r.ls.spurious += l.spurious
		}
		rows = append(rows, r)
	}
	pct := func(n int) string { return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(histories)) }
	fmt.Fprintf(w, "Nightly job, red nights (%d histories of %d nights a case; p = %g):\n\n", histories, nights, cfg.P)
	fmt.Fprintln(w, "| Case | Rule | Red that night | Red from it on | Red before it (false alarm) |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range rows {
		for _, rule := range []struct {
			name string
			t    tally
		}{{"median (old)", r.old}, {"change points (new)", r.cp}, {"either (compare now)", r.either}} {
			cells := []string{pct(rule.t.thatNight), pct(rule.t.fromIt), pct(rule.t.before)}
			switch {
			case r.sc.outlier > 0: // red after the outlier night is a false alarm, as before it
				cells[1] = "after it: " + pct(rule.t.later)
			case len(r.sc.changes) == 0:
				cells[0], cells[1] = "-", "-"
			case r.sc.drift:
				cells[0] = "-"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r.sc.name, rule.name, cells[0], cells[1], cells[2])
		}
	}
	fmt.Fprintf(w, "\nChange points listed at night %d:\n\n", nights)
	fmt.Fprintln(w, "| Case | Every change found (within a night) | A change listed that is none |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, r := range rows {
		found := pct(r.ls.found)
		if len(r.sc.changes) == 0 {
			found = "-"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.sc.name, found, pct(r.ls.spurious))
	}
	return nil
}

func (t *tally) add(o tally) {
	t.thatNight += o.thatNight
	t.fromIt += o.fromIt
	t.later += o.later
	t.before += o.before
}

// history is a seeded history of p95 values in seconds, night 1 first.
func history(sc scenario, seed, k uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 36+k))
	v := make([]float64, nights)
	for i := range v {
		v[i] = base + noise*rng.NormFloat64() + sc.shift(i+1)
		if i+1 == sc.outlier {
			v[i] += 0.6
		}
	}
	return v
}

// judgeNights runs the nightly job over a history: each night from the 6th it judges that night with
// both rules; at the last it lists the change points.
func judgeNights(sc scenario, p95 []float64, cfg changepoint.Config) (old, cp, either tally, ls listed, err error) {
	first := sc.outlier
	if len(sc.changes) > 0 {
		first = sc.changes[0].night
	}
	runs := nightRuns(p95)
	var last judge.ChangeSection
	for night := judge.DefaultMinHistory + 1; night <= nights; night++ {
		upTo := runs[:night]
		tr, err := judge.NewTrend(upTo[max(0, night-window):], judge.DefaultMinHistory)
		if err != nil {
			return old, cp, either, ls, err
		}
		s, err := judge.FindChanges(upTo, window, cfg, nil)
		if err != nil {
			return old, cp, either, ls, err
		}
		tr.Changes = &s
		last = s
		v := tr.CheckLimits([]judge.Limit{{Key: "p95", Max: 0.10}})
		if len(v) != 2 {
			return old, cp, either, ls, fmt.Errorf("night %d: %d verdicts", night, len(v))
		}
		mark(&old, !v[0].Passed, night, first, sc.drift)
		mark(&cp, !v[1].Passed, night, first, sc.drift)
		mark(&either, !v[0].Passed || !v[1].Passed, night, first, sc.drift)
	}
	ls = count(sc, last.Changes)
	return old, cp, either, ls, nil
}

// mark notes a night's verdict: red on the first change's night, after it, or before it.
func mark(t *tally, red bool, night, first int, drift bool) {
	switch {
	case !red:
	case drift || (first > 0 && night > first):
		t.fromIt, t.later = 1, 1
	case first > 0 && night == first:
		t.thatNight, t.fromIt = 1, 1
	default:
		t.before = 1
	}
}

// count says whether the change points of the p95 at the last night hold every true change
// (within a night, the right way) and whether they hold any other.
func count(sc scenario, changes []judge.ChangePoint) listed {
	var p95 []judge.ChangePoint
	for _, c := range changes {
		if c.Figure == "p95" {
			p95 = append(p95, c)
		}
	}
	var l listed
	matched := make([]bool, len(p95))
	found := len(sc.changes) > 0
	for _, want := range sc.changes {
		hit := false
		for i, c := range p95 {
			near := c.Index+1 >= want.night-1 && c.Index+1 <= want.night+1
			if (sc.drift && c.Regression) || (near && c.Regression == want.worse) {
				matched[i], hit = true, true
			}
		}
		found = found && hit
	}
	if found {
		l.found = 1
	}
	for _, m := range matched {
		if !m {
			l.spurious = 1
		}
	}
	return l
}

// nightRuns are saved results whose only figure that varies is the p95 given.
func nightRuns(p95 []float64) []stats.Report {
	runs := make([]stats.Report, len(p95))
	for i, v := range p95 {
		runs[i] = stats.Report{Label: fmt.Sprintf("night %02d", i+1), Transactions: 1000, SuccessfulTransactions: 1000,
			Requests: 1000, ElapsedTime: 10, ResponseTime: 0.25, TransactionRate: 100,
			Percentiles: stats.Percentiles{P50: 0.2, P95: v}}
		runs[i].Run.StartedAt = time.Date(2026, 11, 1+i, 2, 30, 0, 0, time.UTC)
	}
	return runs
}
