package run

import (
	"context"
	"io"

	"github.com/webload/webload/live"
	"github.com/webload/webload/loader"
)

// verbosePart prints a line per request as the results come (-v): responses on stdout,
// requests without one and failed checks on stderr, each hop and resource by its own method
// and URL (the loader names them when Config.NameRequests is set, as runOnce does for -v).
type verbosePart struct {
	stdout, stderr io.Writer
}

func (verbosePart) start(context.Context, *runState) error { return nil }

func (p verbosePart) wrap(next loader.Sink, r *runState) loader.Sink {
	return live.NewVerbose(p.stdout, p.stderr, r.targets, r.loader.Request, next)
}

func (verbosePart) finish(*runState) section { return nil }
