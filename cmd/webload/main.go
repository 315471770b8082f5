// Command webload is an HTTP load tester that reads siege's flags and URL files and reports
// siege's figures plus exact percentiles, per-URL results and machine-readable output.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
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
	go stopOnSignals(cancel, os.Stderr)
	err := runApp(ctx, os.Args, os.Stdout, os.Stderr, os.LookupEnv)
	os.Exit(exitCode(err, os.Stderr))
}

// stopOnSignals turns the first SIGINT, SIGTERM or SIGHUP into a graceful stop (the run
// finishes the requests in flight and reports) and a later one into an immediate exit, like
// siege. Signals within sameSignalWindow of the first are the same stop, delivered twice.
func stopOnSignals(cancel context.CancelCauseFunc, stderr io.Writer) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	first := <-sigs
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
