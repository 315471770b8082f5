package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/run"
	"github.com/webload/webload/stats"
)

// abortOptions are the values of the flags that stop a run early when a gate breaks.
type abortOptions struct {
	on     typedList[gate.Gate]
	window typed[time.Duration]
}

// abortFlags are --abort-on and --abort-window.
func abortFlags(o *abortOptions) []cli.Flag {
	return []cli.Flag{
		typedListFlag(&cli.GenericFlag{Name: "abort-on", Category: catGates, Usage: "stop the run (exit 1) as soon as `EXPR` holds over the last --abort-window of requests, e.g. error_rate>5 or p95>2s (repeatable; --assert's figures that are kept during the run); judged every second once the window holds " + fmt.Sprint(gate.WindowMinRequests) + " requests or the run has lasted a whole window; the report covers what was measured"}, &o.on, gate.ParseLiveGate),
		typedFlag(&cli.GenericFlag{Name: "abort-window", Category: catGates, Usage: "judge --abort-on over the requests that ended in the last `DURATION`"}, &o.window, run.DefaultAbortWindow.String(),
			secondsFrom(100*time.Millisecond, "want a duration of at least 100ms such as 10s")),
	}
}

// abortFromFlags reads --abort-on and --abort-window into the spec.
func abortFromFlags(c *cli.Context, o *abortOptions, s *runSpec, p *problems) {
	o.on.book(p)
	s.AbortOn = o.on.values()
	switch {
	case o.window.err != nil:
		o.window.book(p)
	case c.IsSet("abort-window") && len(o.on.texts()) == 0:
		p.addf("abort-window", "--abort-window: there are no gates to judge; add --abort-on EXPR")
	}
	s.AbortWindow = o.window.val
}

// abortGateError says an --abort-on gate stopped the run, after its report was written: exit 1.
type abortGateError struct{ abort stats.Abort }

func (e abortGateError) Error() string {
	return "aborted by " + gate.AbortText(e.abort) + "; the report covers what was measured"
}
