package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/capacity"
	"github.com/webload/webload/internal/promsink"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/run"
	"github.com/webload/webload/stats"
)

// capacityCommandDef is `webload capacity`: the run's flags that shape requests, plus the
// search's own.
func capacityCommandDef(stdout, stderr io.Writer, env lookupEnv) *cli.Command {
	o := new(runOptions)
	flags := capacityFlags()
	for _, f := range optionFlags(o) {
		if slices.Contains(notForCapacity, f.Names()[0]) {
			hide(f) // still parsed, so that setting one is refused by name
		}
		flags = append(flags, f)
	}
	return &cli.Command{
		Name:      "capacity",
		Usage:     "find the highest rate (open model) whose steps keep an SLO: double, then bisect to within 5 %, measuring each failure and the answer twice; --repeat N searches N times and gives the median and range",
		ArgsUsage: "--slo 'p95<500ms' [--slo 'error_rate<1'] URL|-f FILE",
		Flags:     flags,
		HideHelp:  true,
		Action:    func(c *cli.Context) error { return capacityCommand(c, o, stdout, stderr, env) },
	}
}

func capacityFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "slo", Category: catLoad, Usage: "a step passes when every `GATE` holds, in --assert's words: p95<500ms, error_rate<1; repeatable, at least one; error_rate<1 is added unless a gate bounds error_rate, availability or failed; gates a heavier load cannot break (p95>1s, trate>=10) are refused"},
		&cli.StringFlag{Name: "step-time", Value: "10s", Category: catLoad, Usage: "measure each rate for `DURATION`"},
		&cli.StringFlag{Name: "settle", Value: "2s", Category: catLoad, Usage: "load each rate for `DURATION` before its step, uncounted, so a queue the rate builds shows in the step"},
		&cli.StringFlag{Name: "from", Value: "10", Category: catLoad, Usage: "first `RATE` in requests per second (halved while it fails, down to 1/s)"},
		&cli.StringFlag{Name: "to", Value: "100000", Category: catLoad, Usage: "highest `RATE` tried: a site that holds it has a capacity of at least that"},
		&cli.IntFlag{Name: "max-steps", Value: capacity.DefaultMaxSteps, Category: catLoad, Usage: "measure at most `N` steps; a rate measured again (a failure, or the capacity to confirm it) counts twice"},
		helpFlag(),
	}
}

// notForCapacity are run flags that have no meaning in a search, which sets the load itself
// and prints its own lines; a user who sets one is told so rather than ignored.
var notForCapacity = []string{"concurrent", "reps", "time", "rate", "ramp", "delay", "benchmark",
	"interval", "verbose", "html", "log", "mark", "hdr-log", "csv",
	"siege-format", "assert", "junit", "history", "server-metrics", "db",
	"shard", "shards", "start-at", "start-after", "get", "print", "config", "per-url", "pprof", "failures"}

// hide keeps a flag out of the help.
func hide(f cli.Flag) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.Hidden = true
	case *cli.IntFlag:
		f.Hidden = true
	case *cli.Int64Flag:
		f.Hidden = true
	case *cli.Uint64Flag:
		f.Hidden = true
	case *cli.BoolFlag:
		f.Hidden = true
	case *cli.StringSliceFlag:
		f.Hidden = true
	}
}

// capacitySearch is what the search's own flags ask for.
type capacitySearch struct {
	slo              []stats.Gate
	opts             capacity.Options
	stepTime, settle time.Duration
}

func capacityFromFlags(c *cli.Context) (capacitySearch, error) {
	var s capacitySearch
	var p problems
	for _, name := range notForCapacity {
		if c.IsSet(name) {
			p.addf(name, "--%s does not apply to webload capacity, which sets the load itself", name)
		}
	}
	for _, expr := range c.StringSlice("slo") {
		g, err := stats.ParseGate(expr)
		if err != nil {
			p.addf("slo", "--slo: %w", err)
			continue
		}
		if err := capacity.CheckGate(g); err != nil {
			p.addf("slo", "--slo: %w", err)
			continue
		}
		s.slo = append(s.slo, g)
	}
	if len(c.StringSlice("slo")) == 0 {
		p.addf("slo", "--slo: name at least one gate the steps must keep, such as --slo 'p95<500ms'")
	} else if len(s.slo) == len(c.StringSlice("slo")) {
		full, err := capacity.SLO(s.slo) // every gate passed CheckGate: this adds the error ceiling
		if err != nil {
			p.addf("slo", "--slo: %w", err)
		}
		s.slo = full
	}
	var err error
	if s.stepTime, err = parseSeconds(c.String("step-time")); err != nil || s.stepTime <= 0 {
		p.addf("step-time", "--step-time: want a positive duration such as 10s (got %q)", c.String("step-time"))
	} else if s.stepTime < capacity.MinStepTime {
		p.addf("step-time", "--step-time: want %v at least, for a step to hold requests enough to judge (got %q)", capacity.MinStepTime, c.String("step-time"))
	}
	if s.settle, err = parseSeconds(c.String("settle")); err != nil || s.settle < 0 {
		p.addf("settle", "--settle: want a duration such as 2s, or 0 (got %q)", c.String("settle"))
	}
	if s.opts.From, err = parseRate(c.String("from")); err != nil {
		p.addf("from", "--from: %w", err)
	}
	if s.opts.To, err = parseRate(c.String("to")); err != nil {
		p.addf("to", "--to: %w", err)
	}
	if err == nil && s.opts.To < s.opts.From && c.IsSet("from") {
		p.addf("to", "--to %s is below --from %s", c.String("to"), c.String("from"))
	}
	if s.opts.MaxSteps = c.Int("max-steps"); s.opts.MaxSteps < 1 {
		p.addf("max-steps", "--max-steps: want at least 1 (got %d)", s.opts.MaxSteps)
	}
	return s, p.err(func(string, string) (string, bool) { return "", false })
}

// capacityCommand runs the search. It prints each step as it ends and the capacity last, and
// exits 0 when a rate passed, 1 (as a failed gate) when none did and some failed, 4 (as an
// inconclusive limit) when no step could be judged.
func capacityCommand(c *cli.Context, o *runOptions, stdout, stderr io.Writer, env lookupEnv) error {
	if c.Bool("help") {
		return cli.ShowCommandHelp(c, "capacity")
	}
	search, err := capacityFromFlags(c)
	if err != nil {
		return err
	}
	// The open model: --rate sets its cap on users in flight (--max-users), each step its rate.
	if err := c.Set("rate", "1"); err != nil {
		return fmt.Errorf("setting the open model: %w", err)
	}
	spec, err := specFromFlags(c, o, env, func(string, string) (string, bool) { return "", false })
	if err != nil {
		return err
	}
	cfg := &spec.Config
	if err := cfg.LookUpHosts(c.Context, spec.Targets, net.DefaultResolver.LookupHost); err != nil {
		return usageError{err}
	}
	if err := loader.RaiseFileLimit(cfg.MaxUsers); err != nil {
		return usageError{err}
	}
	m := &capacity.Measurer{Config: spec.Config, Targets: spec.Targets, StepTime: search.stepTime,
		Settle: search.settle, SLO: search.slo, Info: spec.Info, Label: spec.Outputs.Label}
	if addr := spec.Outputs.PromAddr; addr != "" {
		m.Metrics = promsink.New()
		stop, err := run.ServeLoopback(c.Context, "prometheus-listen", addr, m.Metrics.Handler())
		if err != nil {
			return runError(err)
		}
		defer stop()
	}
	lines := stdout // the steps and the capacity; with -j the JSON alone goes to stdout
	if spec.Outputs.JSON {
		lines = stderr
	}
	if spec.Outputs.Quiet {
		lines = io.Discard
	}
	fmt.Fprintf(lines, "Capacity search for %s: steps of %v after %v settling, from %g/s up to %g/s\n",
		sloText(search.slo, len(c.StringSlice("slo"))), search.stepTime, search.settle, min(search.opts.From, search.opts.To), search.opts.To)
	search.opts.Step = func(s capacity.Step) { fmt.Fprintln(lines, s.Summary().Line()) }
	runStarts(c.Context)
	results, searchErr := repeatSearch(c.Context, search, spec.Repeat, spec.RepeatPause, m.Measure, lines)
	rep, saved, err := capacity.SeriesReport(results)
	if err != nil {
		return err
	}
	var summary stats.Capacity
	if saved {
		summary = *rep.Capacity
	} else {
		summary = results[len(results)-1].Summary()
	}
	if len(results) > 1 {
		fmt.Fprintln(lines, summary.Summary())
	}
	if err := saveCapacity(rep, saved, &spec.Outputs, stdout); err != nil {
		return err
	}
	switch {
	case searchErr != nil && c.Context.Err() != nil:
		return runError(run.InterruptedError{Cause: context.Cause(c.Context)})
	case searchErr != nil:
		return searchErr
	case !summary.Judged():
		return unjudgedError{summary.Summary()}
	case summary.Rate == 0:
		return noCapacityError{summary.Summary()}
	}
	return nil
}

// repeatSearch runs the search n times, pause apart, each printing its steps and its capacity
// line (with a heading when there are several), and returns every search begun: the last one
// cut short when the context ended, with the error that ended it.
func repeatSearch(ctx context.Context, search capacitySearch, n int, pause time.Duration, measure capacity.Measure, lines io.Writer) ([]capacity.Result, error) {
	n = max(n, 1)
	var out []capacity.Result
	for i := range n {
		if i > 0 {
			t := time.NewTimer(pause)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return out, ctx.Err()
			}
		}
		if n > 1 {
			fmt.Fprintf(lines, "Search %d of %d:\n", i+1, n)
		}
		res, err := capacity.Search(ctx, search.slo, search.opts, measure)
		out = append(out, res)
		sum := res.Summary()
		fmt.Fprintln(lines, sum.Summary())
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// saveCapacity writes the result of the step at the capacity, the search attached (for a
// repeated search, the searches' results combined), to -o and, with -j, to stdout.
func saveCapacity(rep stats.Report, ok bool, out *run.Outputs, stdout io.Writer) error {
	if !ok {
		return nil
	}
	var errs []error
	if out.JSONFile != "" {
		errs = append(errs, stats.SaveJSON(out.JSONFile, &rep))
	}
	if out.JSON {
		errs = append(errs, stats.WriteJSON(stdout, &rep))
	}
	return errors.Join(errs...)
}

// sloText lists the gates the steps are judged by; those past the first given were added by
// the search (the error ceiling), and say so.
func sloText(slo []stats.Gate, given int) string {
	var s []string
	for i, g := range slo {
		if i >= given {
			s = append(s, g.Expr+" (added: no --slo bounds the errors)")
			continue
		}
		s = append(s, g.Expr)
	}
	return strings.Join(s, ", ")
}

// noCapacityError says no rate kept the SLO; it exits as a failed gate does.
type noCapacityError struct{ summary string }

func (e noCapacityError) Error() string { return strings.TrimPrefix(e.summary, "Capacity: ") }
func (e noCapacityError) Unwrap() error { return gateError{failed: 1, total: 1} }

// unjudgedError says no step of the search could be judged (too few requests for its gates);
// it exits as an inconclusive limit does: measure again, with longer steps.
type unjudgedError struct{ summary string }

func (e unjudgedError) Error() string {
	return strings.TrimPrefix(e.summary, "Capacity: ") + "; lengthen --step-time or raise --from"
}
func (e unjudgedError) Unwrap() error { return inconclusiveError{} }
