package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// runCommand is the App's action: siege's command line.
func runCommand(c *cli.Context, stdout, stderr io.Writer, env lookupEnv) error {
	if c.Bool("help") {
		return cli.ShowAppHelp(c)
	}
	if c.Bool("version") {
		return printVersion(stdout)
	}
	spec, err := specFromFlags(c, env)
	if err != nil {
		return err
	}
	return execute(c.Context, spec, stdout, stderr)
}

// execute runs the load and writes every output asked for. An interrupted run still writes
// everything it measured before reporting the interruption.
func execute(ctx context.Context, spec runSpec, stdout, stderr io.Writer) error {
	stderr = &lockedWriter{w: stderr} // the stop notice and verbose failures share it
	if err := loader.CheckHosts(ctx, spec.targets, net.DefaultResolver.LookupHost); err != nil {
		return usageError{err}
	}
	l, err := loader.New(spec.cfg, spec.targets)
	if err != nil {
		return usageError{err}
	}
	rec := stats.NewRecorder(spec.targets, spec.cfg.Users)
	var sink loader.Sink = rec
	if spec.out.verbose {
		sink = stats.NewVerbose(stdout, stderr, spec.targets, rec)
	}
	talk := !spec.out.quiet && !spec.out.json
	if talk {
		fmt.Fprint(stderr, banner(&spec))
	}
	finished := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			if talk {
				fmt.Fprintln(stderr, "Stopping: letting the requests in flight finish, then reporting (Ctrl-C again to quit at once)")
			}
		case <-finished:
		}
	}()
	outcome := l.Run(ctx, sink)
	close(finished)

	rep := rec.Report(outcome, spec.info, spec.out.label)
	if err := writeOutputs(&rep, spec.out, stdout, time.Now()); err != nil {
		return err
	}
	if outcome.Stop == loader.Interrupted {
		var sc signalCause
		if errors.As(context.Cause(ctx), &sc) {
			return interruptedError{sc}
		}
		return interruptedError{signalCause{}}
	}
	return nil
}

// writeOutputs prints the report (text or JSON) and writes the files asked for. It tries every
// output even when one fails, so a full disk does not cost the others.
func writeOutputs(rep *stats.Report, out outputs, stdout io.Writer, now time.Time) error {
	var errs []error
	switch {
	case out.json:
		errs = append(errs, stats.WriteJSON(stdout, rep))
	case !out.quiet:
		errs = append(errs, stats.WriteText(stdout, rep, out.text))
	}
	if out.jsonFile != "" {
		errs = append(errs, stats.SaveJSON(out.jsonFile, rep))
	}
	if out.logFile != "" {
		errs = append(errs, stats.AppendLog(out.logFile, rep, out.mark, now))
	}
	return errors.Join(errs...)
}

// banner says what is about to happen.
func banner(s *runSpec) string {
	var plan string
	switch {
	case s.cfg.Once:
		plan = "each URL once"
	case s.cfg.Reps > 0 && s.cfg.Duration > 0:
		plan = fmt.Sprintf("%d requests each or %v, whichever ends first", s.cfg.Reps, s.cfg.Duration)
	case s.cfg.Reps > 0:
		plan = fmt.Sprintf("%d requests each", s.cfg.Reps)
	case s.cfg.Duration > 0:
		plan = fmt.Sprintf("for %v", s.cfg.Duration)
	default:
		plan = "until Ctrl-C"
	}
	return fmt.Sprintf("** webload %s\n** %d users, %s, over %d URLs\nLoading... Ctrl-C stops and reports what was measured.\n",
		version, s.cfg.Users, plan, len(s.targets))
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
