package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/webload/webload/internal/progress"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/report"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
)

// runCommand is the App's action: siege's command line.
func runCommand(c *cli.Context, stdout, stderr io.Writer, env lookupEnv) error {
	if c.Bool("help") {
		return cli.ShowAppHelp(c)
	}
	if c.Bool("version") {
		return printVersion(stdout)
	}
	applied, err := applySiegerc(c, env, stderr)
	if err != nil {
		return err
	}
	if c.Bool("config") {
		_, err := io.WriteString(stdout, effectiveConfig(c, runFlags(), applied))
		return err
	}
	spec, err := specFromFlags(c, env)
	if err != nil {
		return err
	}
	if probeURL(c) != "" {
		return probe(&spec, c.IsSet("print"), stdout)
	}
	term, _ := env("TERM")
	_, noColor := env("NO_COLOR")
	spec.out.progress = isTerminal(stderr) && term != "dumb" && !spec.out.quiet && !spec.out.verbose
	spec.out.color = !noColor
	if addr := c.String("pprof"); addr != "" {
		stop, err := servePprof(c.Context, addr)
		if err != nil {
			return err
		}
		defer stop()
	}
	return execute(c.Context, spec, stdout, stderr)
}

// execute runs the load (a --repeat series of runs) and writes every output asked for, then
// checks the gates. An interrupted run still writes everything it measured before reporting
// the interruption.
func execute(ctx context.Context, spec runSpec, stdout, stderr io.Writer) error {
	terminal := stderr
	stderr = &lockedWriter{w: stderr} // the stop notice and verbose failures share it
	// Through a proxy, the proxy resolves the names.
	if spec.cfg.Proxy == "" {
		if err := loader.CheckHosts(ctx, spec.targets, net.DefaultResolver.LookupHost); err != nil {
			return usageError{err}
		}
	}
	if err := loader.RaiseFileLimit(max(spec.cfg.Users, spec.cfg.MaxUsers)); err != nil {
		return usageError{err}
	}
	tuneGC(max(spec.cfg.Users, spec.cfg.MaxUsers), len(spec.targets))
	talk := !spec.out.quiet && !spec.out.json
	if talk {
		fmt.Fprint(stderr, banner(&spec))
	}
	live, err := startLiveOutputs(ctx, spec.out)
	if err != nil {
		return err
	}
	var runs []stats.Report
	interrupted, aborted := false, false
	for i := range max(spec.repeat, 1) {
		if i > 0 && !pauseBetweenRuns(ctx, spec.repeatPause) {
			interrupted = true
			break
		}
		if i == 0 {
			if err := waitForStart(ctx, spec.startAt); err != nil {
				live.close()
				return err
			}
		}
		rep, stop, err := runOnce(ctx, &spec, live, stdout, stderr, terminal, talk)
		if err != nil {
			live.close()
			return err
		}
		if sh := rep.Run.Shard; sh != nil && !sh.PlannedStart.IsZero() {
			s := *sh
			s.StartOffset = rep.Run.StartedAt.Sub(s.PlannedStart).Seconds()
			rep.Run.Shard = &s
		}
		runs = append(runs, rep)
		if spec.repeat > 1 && talk {
			fmt.Fprintf(stderr, "Run %d of %d: %d transactions, %.2f trans/sec, p95 %.3f ms, %d failed\n", i+1, spec.repeat,
				rep.Transactions, rep.TransactionRate, rep.Percentiles.P95*1000, rep.FailedTransactions)
		}
		if stop == loader.Interrupted {
			interrupted = true
			break
		}
		if stop == loader.TooManyFailures {
			aborted = true
			break
		}
	}
	liveErr := live.close()
	rep := runs[0]
	if spec.repeat > 1 {
		var err error
		if rep, err = stats.Combine(runs); err != nil {
			return err
		}
	}
	if err := errors.Join(liveErr, writeOutputs(&rep, spec.out, stdout, time.Now())); err != nil {
		return err
	}
	if err := rep.Check(); err != nil {
		return bugError{err}
	}
	// Only whole runs join the history: a partial one would distort the trend.
	if spec.history != "" && !interrupted && !aborted {
		if err := saveHistory(spec.history, &rep); err != nil {
			return err
		}
	}
	if interrupted {
		var sc signalCause
		errors.As(context.Cause(ctx), &sc)
		return interruptedError{sc}
	}
	if aborted {
		return abortedError{threshold: spec.cfg.MaxFailures, failed: noResponse(&runs[len(runs)-1])}
	}
	return checkGates(&rep, &spec, stdout)
}

// noResponse counts a run's requests that got no response, what --failures counts.
func noResponse(rep *stats.Report) int64 {
	var n int64
	for _, c := range rep.Errors {
		n += c
	}
	return n
}

// runOnce makes one run: the loader, its statistics, and the progress line, server monitor
// and live outputs around it.
func runOnce(ctx context.Context, spec *runSpec, live *liveOutputs, stdout, stderr, terminal io.Writer, talk bool) (stats.Report, loader.StopReason, error) {
	l, err := loader.New(spec.cfg, spec.targets)
	if errors.Is(err, loader.ErrBadRate) {
		// parseRate refuses such rates first; this keeps the flag named should another way
		// to set the rate come.
		return stats.Report{}, 0, usagef("--rate: %w", err)
	}
	if err != nil {
		return stats.Report{}, 0, usageError{err}
	}
	// The monitor takes its first sample now, which may take a while: before the sinks take
	// the run's start time.
	var monitor *sysload.Monitor
	if spec.server != nil {
		monitor = sysload.Start(ctx, spec.server, spec.serverSpec, spec.interval)
	}
	// The loader books login steps after the URL list, so the statistics see its target list.
	targets := l.Targets()
	rec := stats.NewRecorder(targets, stats.Options{Interval: spec.interval, RampEnd: spec.cfg.Ramp})
	var sink loader.Sink = rec
	if spec.out.verbose {
		sink = stats.NewVerbose(stdout, stderr, targets, rec)
	}
	start := time.Now()
	sink = live.wrap(sink, targets, start)
	notices := stderr
	stopProgress := func() {}
	if spec.out.progress {
		figures := stats.NewLive(sink, time.Second, start)
		sink = figures
		d := progress.Start(terminal, plannedProgress(spec), spec.out.color, start,
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
	rep := rec.Report(outcome, spec.info, spec.out.label)
	if monitor != nil {
		server := monitor.Stop()
		rep.Server = &server
	}
	return rep, outcome.Stop, nil
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

// checkGates evaluates --assert on the result, prints each verdict and writes --junit.
func checkGates(rep *stats.Report, spec *runSpec, stdout io.Writer) error {
	if len(spec.gates) == 0 {
		return nil
	}
	lines := verdictLines{prefix: "Gate ", failuresOnly: spec.out.quiet || spec.out.json}
	return finishVerdicts(stats.CheckGates(rep, spec.gates), lines, spec.junit, "webload "+stats.Label(rep, 0), stdout)
}

// saveHistory keeps the result under DIR with a name that sorts by time, for
// `webload compare --history DIR`.
func saveHistory(dir string, rep *stats.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	name := rep.Run.StartedAt.UTC().Format("20060102T150405Z")
	if slug := slugify(rep.Label); slug != "" {
		name += "-" + slug
	}
	return stats.SaveJSON(filepath.Join(dir, name+".json"), rep)
}

// slugify keeps letters, digits, dots and dashes of a label, for a file name.
func slugify(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-.")
}

// writeOutputs prints the report (text or JSON) and writes the files asked for. It tries every
// output even when one fails, so a full disk or a closed stdout does not cost the others.
func writeOutputs(rep *stats.Report, out outputs, stdout io.Writer, now time.Time) error {
	var errs []error
	var printErr error
	switch {
	case out.json:
		printErr = stats.WriteJSON(stdout, rep)
	case !out.quiet:
		printErr = stats.WriteText(stdout, rep, out.text)
	}
	errs = append(errs, stdoutErr(printErr))
	if out.jsonFile != "" {
		errs = append(errs, stats.SaveJSON(out.jsonFile, rep))
	}
	if out.htmlFile != "" {
		errs = append(errs, writeHTMLFile(out.htmlFile, []stats.Report{*rep}, report.Options{}))
	}
	if out.logFile != "" {
		errs = append(errs, stats.AppendLog(out.logFile, rep, out.mark, now))
	}
	if out.hdrLogFile != "" {
		errs = append(errs, stats.SaveHdrLog(out.hdrLogFile, rep))
	}
	return errors.Join(errs...)
}

// banner says what is about to happen.
func banner(s *runSpec) string {
	c := &s.cfg
	var plan string
	switch {
	case c.Once:
		plan = "each URL once"
	case c.Reps > 0 && c.Duration > 0:
		plan = fmt.Sprintf("%d requests%s or %v, whichever ends first", c.Reps, perUser(c), c.Duration)
	case c.Reps > 0:
		plan = fmt.Sprintf("%d requests%s", c.Reps, perUser(c))
	case c.Duration > 0:
		plan = fmt.Sprintf("for %v", c.Duration)
	default:
		plan = "until Ctrl-C"
	}
	who := fmt.Sprintf("%d users", c.Users)
	if c.Rate > 0 {
		who = fmt.Sprintf("%.6g requests/s (open model, up to %d users)", c.Rate, c.MaxUsers)
	}
	if c.Ramp > 0 {
		who += fmt.Sprintf(" after a %v ramp", c.Ramp)
	}
	return fmt.Sprintf("** webload %s\n** %s, %s, over %d URLs\nLoading... Ctrl-C stops and reports what was measured.\n",
		version, who, plan, len(s.targets))
}

func perUser(c *loader.Config) string {
	if c.Rate > 0 {
		return " in all"
	}
	return " each"
}

// plannedProgress is what the progress line measures against: the run time, else the number
// of requests.
func plannedProgress(s *runSpec) progress.Plan {
	c := &s.cfg
	plan := progress.Plan{Duration: c.Duration}
	switch {
	case c.Once:
		plan.Requests = int64(len(s.targets))
	case c.Reps > 0 && c.Rate > 0:
		plan.Requests = int64(c.Reps)
	case c.Reps > 0:
		plan.Requests = int64(c.Reps) * int64(c.Users)
	}
	return plan
}

// isTerminal tells whether w is a terminal, where a progress line can be redrawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
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
