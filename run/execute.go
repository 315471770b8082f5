package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// Streams are where a run prints: the report (or verbose lines) on Stdout; the banner, notices,
// verbose failures and the progress line on Stderr.
type Streams struct {
	Stdout, Stderr io.Writer
}

// Execute runs the load (a series of spec.Repeat runs, or a ladder of such series), writes
// every output the spec asks for and keeps the result in the history, then returns the result:
// the one run's, the series combined, or the ladder (see stats.Ladder). An interrupted or aborted series still writes everything it measured before it
// returns an InterruptedError or AbortedError. A SettingError means nothing was run. It raises
// the open-file limit and sets the garbage collector's target for the run's size (unless GOGC
// is set): both belong to the process, which is the run's.
func Execute(ctx context.Context, spec Spec, st Streams) (stats.Report, error) {
	stderr := &lockedWriter{w: st.Stderr} // the stop notice and verbose failures share it
	cfg := &spec.Config
	if len(spec.Ladder) > 1 && (cfg.Rate > 0 || cfg.Shards > 1) {
		return stats.Report{}, SettingError{ErrLadder}
	}
	users := max(cfg.Users, cfg.MaxUsers, slices.Max(append([]int{0}, spec.Ladder...)))
	// Before the hosts are looked up: a long list's checks make garbage, which the default
	// target lets grow to as much as the list itself holds.
	defer tuneGC(ctx, users, len(spec.Targets))()
	if err := prepare(ctx, &spec, users, stderr); err != nil {
		return stats.Report{}, err
	}
	out := &runIO{stdout: st.Stdout, stderr: stderr, terminal: st.Stderr, talk: !spec.Outputs.Quiet && !spec.Outputs.JSON}
	fmt.Fprint(stderr, emptyShardNotice(cfg))
	if out.talk {
		fmt.Fprint(stderr, banner(&spec))
		for _, note := range loader.PlatformNotes() {
			fmt.Fprintf(stderr, "** note: %s\n", note)
		}
	}
	var err error
	if out.parts, err = newParts(ctx, &spec, out); err != nil {
		return stats.Report{}, err
	}
	var rep stats.Report
	var end seriesEnd
	if len(spec.Ladder) > 1 {
		rep, end, err = ladder(ctx, &spec, out)
	} else {
		rep, end, err = series(ctx, &spec, out, true)
	}
	partsErr := closeParts(out.parts)
	if err != nil {
		return rep, err
	}
	interrupted, aborted := end.interrupted, end.aborted
	if err := errors.Join(partsErr, writeOutputs(&rep, &spec.Outputs, st.Stdout, time.Now())); err != nil {
		return rep, err
	}
	if err := rep.Check(); err != nil {
		return rep, AccountingError{err}
	}
	// Only whole runs join the history: a partial one would distort the trend.
	if spec.History != "" && !interrupted && !aborted {
		if err := saveHistory(spec.History, &rep); err != nil {
			return rep, err
		}
	}
	if interrupted {
		return rep, InterruptedError{context.Cause(ctx)}
	}
	if end.gate != nil {
		return rep, GateAbortError{Abort: *end.gate}
	}
	if aborted {
		return rep, AbortedError{Threshold: cfg.MaxFailures, Failed: end.failed}
	}
	return rep, nil
}

// prepare readies the machine for a load of users at most: it looks the hosts up and raises
// the open-file limit. Through a proxy, the proxy resolves the names; a name mapped to an
// address (Resolve) is not looked up, and the host ConnectTo leads to is. An interrupt during
// the lookups is an InterruptedError, other problems SettingErrors.
func prepare(ctx context.Context, spec *Spec, users int, stderr io.Writer) error {
	cfg := &spec.Config
	if err := cfg.LookUpHosts(ctx, spec.Targets, net.DefaultResolver.LookupHost); err != nil {
		if ctx.Err() != nil { // a stop during the lookups is no unresolvable host
			return InterruptedError{context.Cause(ctx)}
		}
		// The banner that would warn of a mapping no URL uses is not printed: the warning
		// often says what went wrong.
		for _, w := range routeWarnings(cfg, spec.Targets) {
			fmt.Fprintln(stderr, w)
		}
		return SettingError{err}
	}
	if err := loader.RaiseFileLimit(users); err != nil {
		return SettingError{err}
	}
	return nil
}

// runIO is where the runs of a driver print, and the parts they share (newParts).
type runIO struct {
	stdout, stderr, terminal io.Writer
	talk                     bool // print the banner, each run's line, the stop notice
	parts                    []part
}

// seriesEnd says whether a series ended early: interrupted, or aborted after failed requests
// that got no response in its last run.
type seriesEnd struct {
	interrupted, aborted bool
	failed               int64
	gate                 *stats.Abort // the --abort-on gate that stopped it, if one did
}

// series makes spec.Repeat runs with a pause between them, waiting for spec.StartAt before the
// first when first is set, and returns the one run's result or the runs combined.
func series(ctx context.Context, spec *Spec, out *runIO, first bool) (stats.Report, seriesEnd, error) {
	repeat := max(spec.Repeat, 1)
	var runs []stats.Report
	var end seriesEnd
	for i := range repeat {
		if i > 0 && !pauseBetweenRuns(ctx, spec.RepeatPause) {
			end.interrupted = true
			break
		}
		if i == 0 && first {
			if err := waitForStart(ctx, spec.StartAt); err != nil {
				return stats.Report{}, end, err
			}
		}
		rep, stop, err := runOnce(ctx, spec, out.parts)
		if stoppedBeforeLoad(err) && len(runs) > 0 {
			end.interrupted = true // the runs made so far are the result
			break
		}
		if err != nil {
			return stats.Report{}, end, err
		}
		runs = append(runs, rep)
		if repeat > 1 && out.talk {
			fmt.Fprintf(out.stderr, "Run %d of %d: %d transactions, %.2f trans/sec, p95 %.3f ms, %d failed\n", i+1, repeat,
				rep.Transactions, rep.TransactionRate, rep.Percentiles.P95*1000, rep.FailedTransactions)
		}
		if stop == loader.Interrupted {
			end.interrupted = true
			break
		}
		if stop == loader.TooManyFailures {
			end.aborted, end.failed = true, noResponse(&rep)
			break
		}
		if stop == loader.Aborted && rep.Run.Abort != nil {
			end.aborted, end.gate = true, rep.Run.Abort
			break
		}
	}
	if repeat == 1 {
		return runs[0], end, nil
	}
	rep, err := stats.Combine(runs)
	return rep, end, err
}

// stoppedBeforeLoad tells whether runOnce's error is an interrupt before its load started,
// which leaves the runs (or ladder steps) made before it as the result.
func stoppedBeforeLoad(err error) bool {
	var intr InterruptedError
	return errors.As(err, &intr)
}

// noResponse counts a run's requests that got no response, what MaxFailures counts.
func noResponse(rep *stats.Report) int64 {
	var n int64
	for _, c := range rep.Errors {
		n += c
	}
	return n
}

// runOnce makes one run: the loader and its statistics, with parts around them. An interrupt
// before the load (while a part started: a database that never answers holds its first reading
// up until Ctrl-C) is an InterruptedError, and nothing of the run is reported.
func runOnce(ctx context.Context, spec *Spec, parts []part) (stats.Report, loader.StopReason, error) {
	cfg := spec.Config
	// -v shows each redirect hop and resource by its own method and URL.
	cfg.NameRequests = spec.Outputs.Verbose
	l, err := loader.New(cfg, spec.Targets)
	if err != nil {
		return stats.Report{}, 0, SettingError{err}
	}
	// The loader books login steps after the URL list, so the statistics see its target list.
	r := &runState{spec: spec, loader: l, targets: l.Targets(), info: spec.Info}
	if err := startParts(ctx, parts, r); err != nil {
		return stats.Report{}, 0, err
	}
	rec := stats.NewRecorder(r.targets, stats.Options{Interval: spec.Interval, RampEnd: spec.Config.Ramp})
	r.start = time.Now()
	r.outcome = l.Run(ctx, wrapParts(parts, rec, r))
	sections := finishParts(parts, r)
	rep := rec.Report(r.outcome, r.info, spec.Outputs.Label)
	for _, add := range sections {
		add(&rep)
	}
	return rep, r.outcome.Stop, nil
}

// pauseBetweenRuns lets the server settle between the runs of a series; false means the run was
// interrupted meanwhile.
func pauseBetweenRuns(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// lockedWriter serialises writes from the goroutines that share stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
