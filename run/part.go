package run

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// A part takes part in every run of a driver (a --repeat series, a ladder, a capacity search)
// beside the load itself: the verbose lines, a live output, the abort window, the progress
// line, the server's or the databases' readings, a shard's start offset. The parts a Spec asks
// for are listed once, by newParts, for the whole driver; each run starts them, puts their
// sinks around its statistics and finishes them, in the order of that list. k6's outputs are
// the model (an Output started before the test and stopped after it, one list of them), and
// caddy's modules (what a part holds for the driver is set up when the list is made, and
// released by closeParts) without their global registry.
type part interface {
	// start readies the part for the run r, before the run's start time is taken: a reading
	// taken now (a database's, the server's) precedes the load. An error ends the run before
	// its load: the parts started before this one are finished, and this one leaves nothing
	// to finish.
	start(ctx context.Context, r *runState) error
	// wrap returns the part's sink around next, on the results' way from the loader to the
	// statistics, or next itself. The list's first part is the innermost.
	wrap(next loader.Sink, r *runState) loader.Sink
	// finish ends the part's work on the run once the loader's Run has returned. It may
	// correct what the report is made of (r.outcome, r.info) and returns its section of the
	// report, or nil. A part whose final reading takes time begins it here and waits for it
	// in its section, so that the parts' final readings overlap rather than add up.
	finish(r *runState) section
}

// section adds a part's figures to a run's report, once the report is made.
type section func(rep *stats.Report)

// closer is a part that holds something for its whole driver (a file written run after run,
// a listening server): closeParts releases it after the driver's last run.
type closer interface {
	close() error
}

// runState is one run as its parts see it.
type runState struct {
	spec   *Spec
	loader *loader.Loader
	// targets are the loader's: the URL list, then the login steps it books.
	targets []urls.Target
	// start is the run's wall-clock start, taken once every part has started.
	start time.Time
	// outcome is the loader's, once its Run has returned.
	outcome loader.Outcome
	// info is echoed into the report: the Spec's, with what the parts add in finish.
	info stats.RunInfo
}

// startParts starts parts in order. When one fails, or ctx ends meanwhile (the load is then
// not to be sent: an InterruptedError), those started are finished, their sections dropped.
func startParts(ctx context.Context, parts []part, r *runState) error {
	for i, p := range parts {
		err := stopped(ctx)
		if err == nil {
			err = p.start(ctx, r)
		}
		if err != nil {
			dropParts(parts[:i], r)
			return err
		}
	}
	if err := stopped(ctx); err != nil {
		dropParts(parts, r)
		return err
	}
	return nil
}

// dropParts finishes parts of a run that is not to be: their sections are dropped once done,
// which waits for their final readings, so that they release their connections.
func dropParts(parts []part, r *runState) {
	var none stats.Report
	for _, add := range finishParts(parts, r) {
		add(&none)
	}
}

// stopped is an InterruptedError once ctx has ended.
func stopped(ctx context.Context) error {
	if ctx.Err() != nil {
		return InterruptedError{context.Cause(ctx)}
	}
	return nil
}

// wrapParts puts every part's sink around rec, the list's first innermost, and returns the
// sink the loader feeds.
func wrapParts(parts []part, rec loader.Sink, r *runState) loader.Sink {
	sink := rec
	for _, p := range parts {
		sink = p.wrap(sink, r)
	}
	return sink
}

// finishParts finishes the parts the last first, as deferred calls unwind: the outermost
// sink first, so that an inner part's correction of the outcome (a capacity step's settle time)
// is the report's alone. It returns their sections in the list's order.
func finishParts(parts []part, r *runState) []section {
	out := make([]section, len(parts))
	for i, p := range slices.Backward(parts) {
		out[i] = p.finish(r)
	}
	return slices.DeleteFunc(out, func(s section) bool { return s == nil })
}

// closeParts releases what the parts hold for the driver, the last part first, and returns
// every part's error.
func closeParts(parts []part) error {
	var errs []error
	for _, p := range slices.Backward(parts) {
		if c, ok := p.(closer); ok {
			errs = append(errs, c.close())
		}
	}
	return errors.Join(errs...)
}
