package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/capacity"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/run"
	"github.com/webload/webload/stats"
)

// capacityCommandDef is `webload capacity`: the run's flags, those that set the load hidden and
// refused, plus the search's own.
func capacityCommandDef(stdout, stderr io.Writer, env lookupEnv) *cli.Command {
	o := new(runOptions)
	flags := capacityFlags(o)
	flags = append(flags, runFlagsBut(o, notForCapacity)...)
	return &cli.Command{
		Name:      "capacity",
		Usage:     "find the highest rate (open model) whose steps keep an SLO: double, then bisect to within 5 %, measuring each failure and the answer twice; --repeat N searches N times and gives the median and range",
		ArgsUsage: "--slo 'p95<500ms' [--slo 'error_rate<1'] URL|-f FILE",
		Flags:     flags,
		HideHelp:  true,
		Action:    func(c *cli.Context) error { return capacityCommand(c, o, stdout, stderr, env) },
	}
}

// searchOptions are the values of the capacity search's own flags but --slo.
type searchOptions struct {
	stepTime, settle typed[time.Duration]
	from, to         typed[float64]
}

func capacityFlags(o *runOptions) []cli.Flag {
	s := &o.search
	return []cli.Flag{
		typedListFlag(&cli.GenericFlag{Name: "slo", Category: catLoad, Usage: "a step passes when every `GATE` holds, in --assert's words: p95<500ms, error_rate<1; repeatable, at least one; error_rate<1 is added unless a gate bounds error_rate, availability or failed; gates a heavier load cannot break (p95>1s, trate>=10) are refused; --junit reports them on the step at the capacity"}, &o.slo, parseSLOGate),
		typedFlag(&cli.GenericFlag{Name: "step-time", Category: catLoad, Usage: "measure each rate for `DURATION`"}, &s.stepTime, "10s", parseStepTime),
		typedFlag(&cli.GenericFlag{Name: "settle", Category: catLoad, Usage: "load each rate for `DURATION` before its step, uncounted, so a queue the rate builds shows in the step"}, &s.settle, "2s",
			secondsFrom(0, "want a duration such as 2s, or 0")),
		typedFlag(&cli.GenericFlag{Name: "from", Category: catLoad, Usage: "first `RATE` in requests per second (halved while it fails, down to 1/s)"}, &s.from, "10", parseRate),
		typedFlag(&cli.GenericFlag{Name: "to", Category: catLoad, Usage: "highest `RATE` tried: a site that holds it has a capacity of at least that"}, &s.to, "100000", parseRate),
		&cli.IntFlag{Name: "max-steps", Value: capacity.DefaultMaxSteps, Category: catLoad, Usage: "measure at most `N` steps; a rate measured again (a failure, or the capacity to confirm it) counts twice"},
		helpFlag(),
	}
}

// notForCapacity are the run flags a search refuses, with why: those that set the load or
// when it starts and stops (the search sets its steps' rates and times), those of a report
// it does not print, and those another flag of the search does the work of. A user who sets
// one is told so rather than ignored. Every other run flag applies to each step as to a run:
// the requests, sessions and checks, the databases' and the server's readings, the live
// outputs and the files written with the result.
var notForCapacity = map[string]string{
	"concurrent":   setsTheLoad,
	"reps":         setsTheLoad,
	"time":         setsTheLoad,
	"rate":         setsTheLoad,
	"ramp":         setsTheLoad,
	"delay":        setsTheLoad,
	"benchmark":    setsTheLoad,
	"failures":     setsTheLoad,
	"shard":        setsTheLoad,
	"shards":       setsTheLoad,
	"start-at":     setsTheLoad,
	"start-after":  setsTheLoad,
	"siege-format": noReport,
	"per-url":      noReport,
	"assert":       "whose steps are judged by --slo",
	"abort-on":     endsEarly,
	"abort-window": endsEarly,
	"get":          "which searches: make one request with webload -g",
	"print":        "which searches: make one request with webload -p",
	"config":       "which searches: print the settings with webload -C",
}

// Why notForCapacity refuses a flag, each reason for several.
const (
	setsTheLoad = "which sets the load itself"
	noReport    = "which prints its steps, not a report"
	endsEarly   = "whose steps end early by themselves when they break the --slo badly"
)

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
	case *cli.GenericFlag:
		f.Hidden = true
	}
}

// capacityFromFlags reads what the search's own flags ask for.
func capacityFromFlags(c *cli.Context, o *runOptions) (run.CapacitySearch, error) {
	var s run.CapacitySearch
	var p problems
	refuseSet(c, &p, "capacity", notForCapacity)
	o.slo.book(&p)
	s.SLO = o.slo.values()
	if len(o.slo.texts()) == 0 {
		p.addf("slo", "--slo: name at least one gate the steps must keep, such as --slo 'p95<500ms'")
	} else if len(s.SLO) == len(o.slo.texts()) {
		full, err := capacity.SLO(s.SLO) // every gate passed CheckGate: this adds the error ceiling
		if err != nil {
			p.addf("slo", "--slo: %w", err)
		}
		s.SLO, s.Given = full, len(o.slo.texts())
	}
	so := &o.search
	for _, v := range []interface{ book(*problems) }{&so.stepTime, &so.settle, &so.from, &so.to} {
		v.book(&p)
	}
	s.StepTime, s.Settle, s.Options.From, s.Options.To = so.stepTime.val, so.settle.val, so.from.val, so.to.val
	if so.to.err == nil && s.Options.To < s.Options.From && c.IsSet("from") {
		p.addf("to", "--to %s is below --from %s", so.to.text, so.from.text)
	}
	if s.Options.MaxSteps = c.Int("max-steps"); s.Options.MaxSteps < 1 {
		p.addf("max-steps", "--max-steps: want at least 1 (got %d)", s.Options.MaxSteps)
	}
	return s, p.err(func(string, string) (string, bool) { return "", false })
}

// capacityCommand runs the search (run.SearchCapacity), writes --junit, and exits 0 when a
// rate passed, 1 (as a failed gate) when none did and some failed, 4 (as an inconclusive limit)
// when no step could be judged.
func capacityCommand(c *cli.Context, o *runOptions, stdout, stderr io.Writer, env lookupEnv) error {
	if c.Bool("help") {
		return cli.ShowCommandHelp(c, "capacity")
	}
	search, err := capacityFromFlags(c, o)
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
	showProgress(&spec.Outputs, stderr, env) // each step's, between the lines of the steps
	if o.pprof != "" {
		stop, err := servePprof(c.Context, o.pprof)
		if err != nil {
			return runError(err)
		}
		defer stop()
	}
	defer limitCPUs(spec.cpus)()
	runStarts(c.Context)
	found, err := run.SearchCapacity(c.Context, spec.Spec, search, run.Streams{Stdout: stdout, Stderr: stderr})
	if len(found.Searches) == 0 {
		return runError(err) // nothing was measured
	}
	interrupted := errors.As(err, new(run.InterruptedError))
	if spec.junit != "" {
		suite := strings.TrimSpace("webload capacity " + found.Report.Label)
		if jerr := writeJUnitFile(spec.junit, suite, capacityVerdicts(&found, interrupted)); jerr != nil {
			err = errors.Join(err, jerr)
		}
	}
	summary := found.Summary
	switch {
	case err != nil:
		return runError(err)
	case !summary.Judged():
		return unjudgedError{summary.Summary()}
	case summary.Rate == 0:
		return noCapacityError{summary.Summary()}
	}
	return nil
}

// capacityVerdicts are the cases of a search's --junit file: the SLO's verdicts on the step at
// the capacity when one whole search found one, else one case, the search's outcome: passed
// with a capacity, failed without one or when the search was interrupted, inconclusive when no
// step could be judged.
func capacityVerdicts(found *run.CapacityFound, interrupted bool) []stats.Verdict {
	if len(found.Searches) == 1 && !interrupted {
		if res := &found.Searches[0]; res.Best >= 0 {
			return res.Steps[res.Best].Verdicts
		}
	}
	sum := &found.Summary
	v := stats.Verdict{Check: "capacity", Figure: "capacity", Measured: sum.Rate, Passed: sum.Rate > 0 && !interrupted}
	verdict := "ok"
	switch {
	case interrupted:
		verdict = "FAILED (the search was interrupted)"
	case !sum.Judged():
		v.Inconclusive, verdict = true, "INCONCLUSIVE"
	case !v.Passed:
		verdict = "FAILED"
	}
	v.Text = strings.TrimPrefix(sum.Summary(), "Capacity: ") + ": " + verdict
	return []stats.Verdict{v}
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

// parseSLOGate reads one --slo gate: --assert's, that a heavier load can break.
func parseSLOGate(expr string) (gate.Gate, error) {
	g, err := gate.ParseGate(expr)
	if err == nil {
		err = capacity.CheckGate(g)
	}
	return g, err
}

// parseStepTime reads --step-time: a step shorter than capacity.MinStepTime holds too few
// requests to judge.
func parseStepTime(s string) (time.Duration, error) {
	d, err := parseSeconds(s)
	switch {
	case err != nil || d <= 0:
		return 0, fmt.Errorf("want a positive duration such as 10s (got %q)", s)
	case d < capacity.MinStepTime:
		return 0, fmt.Errorf("want %v at least, for a step to hold requests enough to judge (got %q)", capacity.MinStepTime, s)
	}
	return d, nil
}

// runFlagsBut are the run's flags for a command built on runs, with those it refuses hidden but
// still parsed, so that setting one is refused by name.
func runFlagsBut(o *runOptions, refused map[string]string) []cli.Flag {
	flags := optionFlags(o)
	for _, f := range flags {
		if _, ok := refused[f.Names()[0]]; ok {
			hide(f)
		}
	}
	return flags
}

// refuseSet adds a problem for each refused run flag the command line sets, saying why.
func refuseSet(c *cli.Context, p *problems, command string, refused map[string]string) {
	for _, name := range slices.Sorted(maps.Keys(refused)) {
		if c.IsSet(name) {
			p.addf(name, "--%s does not apply to webload %s, %s", name, command, refused[name])
		}
	}
}
