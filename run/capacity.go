package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/webload/webload/capacity"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"
)

// CapacitySearch is what a capacity search asks for besides its load (the Spec): what each
// step must keep and how the steps are measured.
type CapacitySearch struct {
	// SLO is what each step is judged by, as capacity.SLO completed it: its first Given gates
	// are the user's, the others were added (the error ceiling), which the heading says.
	SLO   []gate.Gate
	Given int
	// Options bound each search; SearchCapacity sets their Step, to print each step.
	Options capacity.Options
	// StepTime is the measured part of each step, capacity.MinStepTime at least; Settle loads
	// the rate before it, uncounted.
	StepTime, Settle time.Duration
	// Window is the period of the live check that ends a step breaking the SLO badly; 0 means
	// capacity.DefaultWindow.
	Window time.Duration
}

// CapacityFound is what a capacity search found.
type CapacityFound struct {
	// Searches are the searches begun (Spec.Repeat of them), the last one cut short when the
	// context ended.
	Searches []capacity.Result
	// Report is the result kept: the step at the capacity with the search attached, or the
	// searches' results combined (capacity.SeriesReport). Saved is false when no step was
	// measured, and nothing was written.
	Report stats.Report
	Saved  bool
	// Summary is the capacity found: the series' when there are several searches.
	Summary stats.Capacity
}

// SearchCapacity searches Spec.Repeat times, Spec.RepeatPause apart, for the highest rate
// whose steps keep search.SLO (capacity.Search). Each step is a run of spec's load at its rate,
// Spec.Config's rate being its cap on users in flight (MaxUsers), with every part spec asks
// for: the databases' and the server's readings, the live outputs, the verbose lines. Its
// result carries their sections, each read over the step. It prints a heading, each step and
// the capacity on stdout (stderr when Outputs.JSON, nowhere when Quiet), then writes the
// outputs spec asks for with the result kept (-o, -j, --html, -l, --hdr-log, and the history
// for a search that was not interrupted). An interrupted search writes what it measured, then
// returns an InterruptedError; a SettingError means nothing was run.
func SearchCapacity(ctx context.Context, spec Spec, search CapacitySearch, st Streams) (CapacityFound, error) {
	stderr := &lockedWriter{w: st.Stderr}
	users := spec.Config.MaxUsers
	defer tuneGC(ctx, users, len(spec.Targets))()
	if err := prepare(ctx, &spec, users, stderr); err != nil {
		return CapacityFound{}, err
	}
	out := &runIO{stdout: st.Stdout, stderr: stderr, terminal: st.Stderr, talk: !spec.Outputs.Quiet && !spec.Outputs.JSON}
	var err error
	if out.parts, err = newParts(ctx, &spec, out); err != nil {
		return CapacityFound{}, err
	}
	lines := searchLines(&spec.Outputs, st.Stdout, stderr)
	o := &search.Options
	fmt.Fprintf(lines, "Capacity search for %s: steps of %v after %v settling, from %g/s up to %g/s\n",
		sloText(search.SLO, search.Given), search.StepTime, search.Settle, min(o.From, o.To), o.To)
	o.Step = func(s capacity.Step) { fmt.Fprintln(lines, s.Summary().Line()) }
	measure := func(ctx context.Context, rate float64) (capacity.Measured, error) {
		return measureStep(ctx, &spec, out.parts, &search, rate)
	}
	results, searchErr := repeatSearch(ctx, &search, spec.Repeat, spec.RepeatPause, measure, lines)
	partsErr := closeParts(out.parts)
	found := CapacityFound{Searches: results}
	if found.Report, found.Saved, err = capacity.SeriesReport(results); err != nil {
		return found, err
	}
	if found.Saved {
		found.Summary = *found.Report.Capacity
	} else if len(results) > 0 {
		found.Summary = results[len(results)-1].Summary()
	}
	if len(results) > 1 {
		fmt.Fprintln(lines, found.Summary.Summary())
	}
	interrupted := searchErr != nil && ctx.Err() != nil
	if found.Saved {
		partsErr = errors.Join(partsErr, writeSearch(&found.Report, &spec, interrupted, st.Stdout))
	}
	switch {
	case interrupted:
		return found, InterruptedError{context.Cause(ctx)}
	case searchErr != nil:
		return found, searchErr
	}
	return found, partsErr
}

// searchLines is where a search prints its steps and capacity: stdout, but stderr when stdout
// carries the JSON, and nowhere when quiet.
func searchLines(out *Outputs, stdout, stderr io.Writer) io.Writer {
	switch {
	case out.Quiet:
		return io.Discard
	case out.JSON:
		return stderr
	}
	return stdout
}

// repeatSearch runs the search n times, pause apart, each printing its steps and its capacity
// line (with a heading when there are several), and returns every search begun: the last one
// cut short when the context ended, with the error that ended it.
func repeatSearch(ctx context.Context, search *CapacitySearch, n int, pause time.Duration, measure capacity.Measure, lines io.Writer) ([]capacity.Result, error) {
	n = max(n, 1)
	var out []capacity.Result
	for i := range n {
		if i > 0 && !pauseBetweenRuns(ctx, pause) {
			return out, ctx.Err()
		}
		if n > 1 {
			fmt.Fprintf(lines, "Search %d of %d:\n", i+1, n)
		}
		res, err := capacity.Search(ctx, search.SLO, search.Options, measure)
		out = append(out, res)
		sum := res.Summary()
		fmt.Fprintln(lines, sum.Summary())
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// writeSearch writes the result a search keeps where spec asks: the files, the JSON on stdout
// (-j), and the history unless the search was interrupted, as a partial run is kept out of it.
// It tries every output even when one fails.
func writeSearch(rep *stats.Report, spec *Spec, interrupted bool, stdout io.Writer) error {
	errs := []error{saveFiles(rep, &spec.Outputs, time.Now())}
	if spec.Outputs.JSON {
		errs = append(errs, StdoutErr(stats.WriteJSON(stdout, rep)))
	}
	if spec.History != "" && !interrupted {
		errs = append(errs, saveHistory(spec.History, rep))
	}
	return errors.Join(errs...)
}

// sloText lists the gates the steps are judged by; those past the first given were added by
// the search (the error ceiling), and say so.
func sloText(slo []gate.Gate, given int) string {
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
