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

	"github.com/webload/webload/internal/progress"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
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
	stdout, terminal := st.Stdout, st.Stderr
	stderr := &lockedWriter{w: st.Stderr} // the stop notice and verbose failures share it
	cfg := &spec.Config
	if len(spec.Ladder) > 1 && (cfg.Rate > 0 || cfg.Shards > 1) {
		return stats.Report{}, SettingError{ErrLadder}
	}
	users := max(cfg.Users, cfg.MaxUsers, slices.Max(append([]int{0}, spec.Ladder...)))
	// Before the hosts are looked up: a long list's checks make garbage, which the default
	// target lets grow to as much as the list itself holds.
	defer tuneGC(ctx, users, len(spec.Targets))()
	// Through a proxy, the proxy resolves the names; a name mapped to an address (Resolve) is
	// not looked up, and the host ConnectTo leads to is.
	if err := cfg.LookUpHosts(ctx, spec.Targets, net.DefaultResolver.LookupHost); err != nil {
		if ctx.Err() != nil { // a stop during the lookups is no unresolvable host
			return stats.Report{}, InterruptedError{context.Cause(ctx)}
		}
		// The banner that would warn of a mapping no URL uses is not printed: the warning
		// often says what went wrong.
		for _, w := range routeWarnings(cfg, spec.Targets) {
			fmt.Fprintln(stderr, w)
		}
		return stats.Report{}, SettingError{err}
	}
	if err := loader.RaiseFileLimit(users); err != nil {
		return stats.Report{}, SettingError{err}
	}
	talk := !spec.Outputs.Quiet && !spec.Outputs.JSON
	if talk {
		fmt.Fprint(stderr, banner(&spec))
		for _, note := range loader.PlatformNotes() {
			fmt.Fprintf(stderr, "** note: %s\n", note)
		}
	}
	live, err := startLiveOutputs(ctx, &spec.Outputs)
	if err != nil {
		return stats.Report{}, err
	}
	out := &runIO{live: live, stdout: stdout, stderr: stderr, terminal: terminal, talk: talk, dbWarned: map[string]bool{}}
	var rep stats.Report
	var end seriesEnd
	if len(spec.Ladder) > 1 {
		rep, end, err = ladder(ctx, &spec, out)
	} else {
		rep, end, err = series(ctx, &spec, out, true)
	}
	liveErr := live.close()
	if err != nil {
		return rep, err
	}
	interrupted, aborted := end.interrupted, end.aborted
	if err := errors.Join(liveErr, writeOutputs(&rep, &spec.Outputs, stdout, time.Now())); err != nil {
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

// runIO is where the runs of an Execute print and what they share: the live outputs and the
// databases already warned of.
type runIO struct {
	live                     *liveOutputs
	stdout, stderr, terminal io.Writer
	talk                     bool
	dbWarned                 map[string]bool // a database that cannot be read is warned of once
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
		rep, stop, err := runOnce(ctx, spec, out.live, out.stdout, out.stderr, out.terminal, out.talk, out.dbWarned)
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

// runOnce makes one run: the loader, its statistics, and the progress line, server monitor,
// database readers and live outputs around it. dbWarned is the series' databases warned of.
func runOnce(ctx context.Context, spec *Spec, live *liveOutputs, stdout, stderr, terminal io.Writer, talk bool, dbWarned map[string]bool) (stats.Report, loader.StopReason, error) {
	cfg := spec.Config
	// -v shows each redirect hop and resource by its own method and URL.
	cfg.NameRequests = spec.Outputs.Verbose
	l, err := loader.New(cfg, spec.Targets)
	if err != nil {
		return stats.Report{}, 0, SettingError{err}
	}
	// The monitors take their first samples now, which may take a while: before the sinks
	// take the run's start time.
	databases := dbReaders(spec)
	startDatabases(ctx, databases, spec.Interval, stderr, dbWarned)
	if ctx.Err() != nil {
		// Stopped while the databases were read (a database that never answers holds that up
		// until Ctrl-C): the load is not sent, and there is nothing of this run to report.
		return stats.Report{}, loader.Interrupted, InterruptedError{context.Cause(ctx)}
	}
	monitor := startServer(ctx, spec, exporterIsDatabase(databases))
	// The loader books login steps after the URL list, so the statistics see its target list.
	targets := l.Targets()
	rec := stats.NewRecorder(targets, stats.Options{Interval: spec.Interval, RampEnd: spec.Config.Ramp})
	var sink loader.Sink = rec
	if spec.Outputs.Verbose {
		sink = stats.NewVerbose(stdout, stderr, targets, l.Request, rec)
	}
	start := time.Now()
	sink = live.wrap(sink, targets, start, l.ActiveUsers)
	var watch *AbortWatch
	if len(spec.AbortOn) > 0 {
		watch = WatchGates(sink, spec.AbortOn, spec.AbortWindow, abortEvery(spec.Interval), start, l.Abort)
		sink = watch
	}
	notices := stderr
	stopProgress := func() {}
	if spec.Outputs.Progress {
		figures := stats.NewLive(sink, time.Second, start)
		sink = figures
		d := progress.Start(terminal, plannedProgress(spec), spec.Outputs.Color, start,
			func(now time.Time) progress.Figures { return progress.Figures(figures.Figures(now)) })
		notices, stopProgress = d, d.Stop
	}
	finished := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			if talk {
				fmt.Fprintln(notices, "Stopping: letting the requests in flight finish, then reporting (Ctrl-C again to quit at once)")
			}
		case <-finished:
		}
	}()
	outcome := l.Run(ctx, sink)
	live.runEnded(outcome.Elapsed)
	close(finished)
	stopProgress()
	info := spec.Info
	if watch != nil {
		// Only a gate that stopped the run is its stop reason: the run may have ended anyway.
		if a, fired := watch.Close(); fired && outcome.Stop == loader.Aborted {
			info.Abort = &a
		}
	}
	rep := rec.Report(outcome, info, spec.Outputs.Label)
	// The final readings are taken side by side, so that their bounds do not add up.
	var server sysload.Summary
	var wg sync.WaitGroup
	if monitor != nil {
		wg.Go(func() { server = monitor.Stop() })
	}
	dbs := stopDatabases(databases)
	wg.Wait()
	if monitor != nil {
		rep.Server = &server
	}
	rep.SetDatabases(dbs)
	if sh := rep.Run.Shard; sh != nil && !sh.PlannedStart.IsZero() {
		s := *sh
		s.StartOffset = rep.Run.StartedAt.Sub(s.PlannedStart).Seconds()
		rep.Run.Shard = &s
	}
	return rep, outcome.Stop, nil
}

// startServer starts reading the server's load, if the spec asks for it. When the
// --server-metrics page is a database exporter's (pageIsDatabase), it is read for the server
// only if it has node figures too: otherwise the server's entry would be all failed readings of
// a page that was read, and its scrapes would add to the database's own count.
func startServer(ctx context.Context, spec *Spec, pageIsDatabase bool) *sysload.Monitor {
	if spec.Server == nil {
		return nil
	}
	first := takeFirst(ctx, spec.Server.Sample)
	if pageIsDatabase && first.err != nil {
		return nil
	}
	return sysload.Start(ctx, first, spec.ServerSpec, spec.Interval)
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
