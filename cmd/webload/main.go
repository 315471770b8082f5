// Command webload is an HTTP load tester that reads siege's flags and URL files and reports
// siege's figures plus exact percentiles, per-URL results and machine-readable output.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// sameSignalWindow is how soon after the first stop signal another one counts as the same
// request rather than "quit now": timeout(1) signals webload and then its process group, and a
// terminal's Ctrl-C reaches every process of the foreground group, so one stop often arrives
// twice within microseconds.
const sameSignalWindow = time.Second

// version is the release, shown by -V and sent in the default User-Agent.
const version = "0.1.0"

func main() {
	// A reader that closed stdout (`webload ... | head -1`) must not kill webload before it
	// writes -o and -l: ignored, SIGPIPE becomes an EPIPE error on the write, which
	// stdoutErr forgives.
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	guard := &runGuard{}
	// Notify before anything else runs, so that no read of the start-up can come before it and a
	// signal then end webload without its message and exit code.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go stopOnSignals(sigs, cancel, guard, os.Stderr)
	err := runApp(withRunGuard(ctx, guard), os.Args, os.Stdout, os.Stderr, os.LookupEnv)
	os.Exit(exitCode(err, os.Stderr))
}

// stopOnSignals turns the first SIGINT, SIGTERM or SIGHUP into a graceful stop (the run
// finishes the requests in flight and reports) and a later one into an immediate exit, like
// siege. Signals within sameSignalWindow of the first are the same stop, delivered twice.
// Before a run has started (guard) there is nothing to report, and the start-up may wait on
// a read or a name lookup that no context reaches, so the first signal exits at once.
func stopOnSignals(sigs <-chan os.Signal, cancel context.CancelCauseFunc, guard *runGuard, stderr io.Writer) {
	first := <-sigs
	if !guard.running.Load() {
		fmt.Fprintf(stderr, "webload: %v before the run started, exiting\n", first)
		os.Exit(signalCause{first}.exitCode())
	}
	firstAt := time.Now()
	cancel(signalCause{first})
	for sig := range sigs {
		if time.Since(firstAt) < sameSignalWindow {
			continue
		}
		fmt.Fprintf(stderr, "webload: %v again, exiting without a report\n", sig)
		os.Exit(signalCause{sig}.exitCode())
	}
}

// runGuard tells the signal handler whether a run (a load, a capacity search, a served demo
// site) is in progress, which a stop signal ends gracefully. Safe for concurrent use.
type runGuard struct{ running atomic.Bool }

type runGuardKey struct{}

// withRunGuard gives the commands run under ctx the guard to mark with runStarts.
func withRunGuard(ctx context.Context, g *runGuard) context.Context {
	return context.WithValue(ctx, runGuardKey{}, g)
}

// runStarts tells the signal handler, if ctx has one, that from now on a stop signal ends the
// run gracefully, with its report, rather than webload at once.
func runStarts(ctx context.Context) {
	if g, ok := ctx.Value(runGuardKey{}).(*runGuard); ok {
		g.running.Store(true)
	}
}

// signalCause is the cancellation cause of an interrupted run.
type signalCause struct{ sig os.Signal }

func (s signalCause) Error() string {
	if s.sig == nil {
		return "interrupted"
	}
	return "interrupted by " + s.sig.String()
}

// exitCode follows the shell's 128+signal convention: 130 for SIGINT, 143 for SIGTERM, 129
// for SIGHUP.
func (s signalCause) exitCode() int {
	if sig, ok := s.sig.(syscall.Signal); ok {
		return 128 + int(sig)
	}
	return 130
}
