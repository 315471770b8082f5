package run

import (
	"context"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
)

// serverPart reads the server's load during each run (--server-metrics) and adds it to the
// report as its server section.
type serverPart struct {
	// dbs are the run's databases, read first: the page may be a database exporter's.
	dbs *databases
	mon *sysload.Monitor // the run's; nil when the page is read for a database only
}

// start takes the first reading before the run's start time. When the --server-metrics page
// is a database exporter's, it is read for the server only if it has node figures too:
// otherwise the server's entry would be all failed readings of a page that was read, and its
// scrapes would add to the database's own count.
func (p *serverPart) start(ctx context.Context, r *runState) error {
	p.mon = nil
	first := takeFirst(ctx, r.spec.Server.Sample)
	if p.dbs.exporterIsDatabase() && first.err != nil {
		return nil
	}
	p.mon = sysload.Start(ctx, first, r.spec.ServerSpec, r.spec.Interval)
	return nil
}

func (p *serverPart) wrap(next loader.Sink, _ *runState) loader.Sink { return next }

// finish begins the final reading; the section waits for it.
func (p *serverPart) finish(*runState) section {
	if p.mon == nil {
		return nil
	}
	mon := p.mon
	done := make(chan sysload.Summary, 1)
	go func() { done <- mon.Stop() }()
	return func(rep *stats.Report) {
		s := <-done
		rep.Server = &s
	}
}
