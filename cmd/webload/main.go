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
)

// version is the release, shown by -V and sent in the default User-Agent.
const version = "0.1.0"

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go stopOnSignals(cancel, os.Stderr)
	err := runApp(ctx, os.Args, os.Stdout, os.Stderr, os.LookupEnv)
	os.Exit(exitCode(err, os.Stderr))
}

// stopOnSignals turns the first SIGINT or SIGTERM into a graceful stop (the run finishes the
// requests in flight and reports) and the second into an immediate exit, like siege.
func stopOnSignals(cancel context.CancelCauseFunc, stderr io.Writer) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	first := <-sigs
	cancel(signalCause{first})
	second := <-sigs
	fmt.Fprintf(stderr, "webload: %v again, exiting without a report\n", second)
	os.Exit(signalCause{second}.exitCode())
}

// signalCause is the cancellation cause of an interrupted run.
type signalCause struct{ sig os.Signal }

func (s signalCause) Error() string {
	if s.sig == nil {
		return "interrupted"
	}
	return "interrupted by " + s.sig.String()
}

// exitCode follows the shell's 128+signal convention: 130 for SIGINT, 143 for SIGTERM.
func (s signalCause) exitCode() int {
	if s.sig == syscall.SIGTERM {
		return 143
	}
	return 130
}
