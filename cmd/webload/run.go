package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/run"
	"github.com/webload/webload/stats"
)

// runCommand is the App's action: siege's command line, whose flags have filled o.
func runCommand(c *cli.Context, o *runOptions, stdout, stderr io.Writer, env lookupEnv) error {
	if c.Bool("help") {
		return cli.ShowAppHelp(c)
	}
	if o.version {
		return printVersion(stdout)
	}
	applied, badLines, err := applySiegerc(c, env, stderr)
	if err != nil {
		return err
	}
	if o.config {
		if len(badLines) > 0 {
			return usageErrorOf(badLines)
		}
		_, err := io.WriteString(stdout, effectiveConfig(c, runFlags(), applied))
		return err
	}
	spec, err := specFromFlags(c, o, env, siegercOrigin(o, env, applied), badLines...)
	if err != nil {
		return err
	}
	if probeURL(o) != "" {
		return probe(&spec, c.IsSet("print"), stdout)
	}
	warnSiteVariables(o.file, env, stderr)
	showProgress(&spec.Outputs, stderr, env)
	if o.pprof != "" {
		stop, err := servePprof(c.Context, o.pprof)
		if err != nil {
			return runError(err)
		}
		defer stop()
	}
	noteUnbounded(&spec.Config, stderr)
	return executeAndJudge(c.Context, &spec, stdout, stderr)
}

// executeAndJudge makes the run spec describes and judges its result: the gates, then whether
// any request succeeded; the error decides the exit code.
func executeAndJudge(ctx context.Context, spec *runSpec, stdout, stderr io.Writer) error {
	defer limitCPUs(spec.cpus)()
	runStarts(ctx)
	rep, err := run.Execute(ctx, spec.Spec, run.Streams{Stdout: stdout, Stderr: stderr})
	if err != nil {
		err = runError(err)
		if endedEarly(err) {
			judgeEarlyEnd(&rep, spec, err, stdout, stderr)
		}
		return err
	}
	gateErr := checkGates(&rep, spec, stdout, stderr)
	if err := noSuccess(&rep); err != nil {
		// The gates' verdicts are out; a failed gate exits 1 as this does, and another
		// failure (a JUnit file not written) is said on a line of its own.
		var gate gateError
		if gateErr != nil && !errors.As(gateErr, &gate) {
			fmt.Fprintf(stderr, "webload: %v\n", gateErr)
		}
		return err
	}
	return gateErr
}

// runError words an error of run.Execute for the command line: the flag it concerns, and the
// type that chooses the exit code.
func runError(err error) error {
	var setting run.SettingError
	var intr run.InterruptedError
	var aborted run.AbortedError
	var gateAbort run.GateAbortError
	var bug run.AccountingError
	switch {
	case errors.As(err, &intr):
		var sc signalCause
		errors.As(intr.Cause, &sc)
		return interruptedError{sc}
	case errors.As(err, &aborted):
		return abortedError{threshold: aborted.Threshold, failed: aborted.Failed}
	case errors.As(err, &gateAbort):
		return abortGateError{gateAbort.Abort}
	case errors.As(err, &bug):
		return bugError{bug.Err}
	case errors.Is(err, loader.ErrBadRate):
		// parseRate refuses such rates first; this keeps the flag named should another way
		// to set the rate come.
		return usagef("--rate: %w", err)
	case errors.As(err, &setting):
		return usageError{setting.Err}
	}
	return err
}

// endedEarly tells whether a run's error is a stop after measuring: an interrupt, --failures or
// --abort-on. Its report is out and its result saved; the gates can still be judged.
func endedEarly(err error) bool {
	var intr interruptedError
	var aborted abortedError
	var gate abortGateError
	return errors.As(err, &intr) || errors.As(err, &aborted) || errors.As(err, &gate)
}

// judgeEarlyEnd judges --assert on what a run that ended early measured, and adds a failed check
// for the early end itself, so that --junit records this run (where a file of an earlier run
// would otherwise be left in place, passing) and the gates' values are there to read. The exit
// code stays the early end's; a JUnit file that cannot be written is said on stderr.
func judgeEarlyEnd(rep *stats.Report, spec *runSpec, ended error, stdout, stderr io.Writer) {
	early := stats.Verdict{
		Check:    "run ended as planned",
		Measured: math.NaN(),
		Text:     "run ended early (" + ended.Error() + "): FAILED",
	}
	err := checkGates(rep, spec, stdout, stderr, early)
	var gate gateError
	if err != nil && !errors.As(err, &gate) {
		fmt.Fprintf(stderr, "webload: %v\n", err)
	}
}

// checkGates evaluates --assert on the result, prints each verdict, with more after them, and
// writes --junit, where the --abort-on gates are cases too, after the --assert ones. They are
// not printed: the end of a run one stopped names it already. Under -j the verdicts go to
// stderr, so that stdout stays one JSON document for jq and scripts.
func checkGates(rep *stats.Report, spec *runSpec, stdout, stderr io.Writer, more ...stats.Verdict) error {
	if len(spec.gates) == 0 && (len(spec.AbortOn) == 0 || spec.junit == "") {
		return nil
	}
	lines := verdictLines{prefix: "Gate ", failuresOnly: spec.Outputs.Quiet || spec.Outputs.JSON}
	if spec.Outputs.JSON {
		stdout = stderr
	}
	suite := "webload " + stats.Label(rep, 0)
	gates := gate.CheckGates(rep, spec.gates)
	if spec.junit != "" {
		window := spec.AbortWindow
		if window <= 0 {
			window = run.DefaultAbortWindow
		}
		cases := append(slices.Clone(gates), gate.AbortVerdicts(spec.AbortOn, window, rep.Run.Abort)...)
		if err := writeJUnitFile(spec.junit, suite, append(cases, more...)); err != nil {
			return err
		}
	}
	if len(spec.gates) == 0 {
		return nil
	}
	return finishVerdicts(append(gates, more...), lines, "", suite, stdout)
}

// showProgress draws the progress line on stderr when it is a terminal that can redraw it,
// unless nothing but errors is printed or a line per request is.
func showProgress(out *run.Outputs, stderr io.Writer, env lookupEnv) {
	term, _ := env("TERM")
	_, noColor := env("NO_COLOR")
	out.Progress = isTerminal(stderr) && term != "dumb" && !out.Quiet && !out.Verbose
	out.Color = !noColor
}

// isTerminal tells whether w is a terminal, where a progress line can be redrawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
