package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// databases is the part that reads what the databases did during each run (Spec.Databases,
// and the --server-metrics page when it is an exporter's) and adds their section to the
// report. A database that cannot be read is warned of once per driver, never again in its
// later runs; it costs its figures, never the run.
type databases struct {
	warn    io.Writer
	warned  map[string]bool // the databases warned of
	readers []*dbReader     // the run's
}

// newDatabases is the part for spec's databases, or nil when it reads none.
func newDatabases(spec *Spec, warn io.Writer) *databases {
	if len(dbReaders(spec)) == 0 {
		return nil
	}
	return &databases{warn: warn, warned: map[string]bool{}}
}

// start takes every database's first reading, before the run's start time: the monitors may
// take a while.
func (p *databases) start(ctx context.Context, r *runState) error {
	p.readers = dbReaders(r.spec)
	startDatabases(ctx, p.readers, r.spec.Interval, r.spec.DBStatements, p.warn, p.warned)
	return nil
}

func (p *databases) wrap(next loader.Sink, _ *runState) loader.Sink { return next }

// finish begins every database's final reading; the section waits for them.
func (p *databases) finish(*runState) section {
	readers := p.readers
	done := make(chan []dbload.Summary, 1)
	go func() { done <- stopDatabases(readers) }()
	return func(rep *stats.Report) { rep.SetDatabases(<-done) }
}

// exporterIsDatabase says whether the --server-metrics page gave a database's reading in the
// run started last; false for a nil part.
func (p *databases) exporterIsDatabase() bool {
	return p != nil && exporterIsDatabase(p.readers)
}

// dbReader is one database read during a run.
type dbReader struct {
	target dbload.Target
	// flag names the setting that asked for it, for the warning.
	flag string
	// exporter is the --server-metrics page read for database figures too: kept only when
	// it had them.
	exporter bool
	mon      *dbload.Monitor
	// startErr is why the first reading failed, or the reader could not even be made (then
	// failed is its summary).
	startErr error
	failed   *dbload.Summary
}

// firstReading replays a reading taken before a monitor starts (to tell whether the run
// warns, or what an exporter's page holds), as the monitor's own first one, then reads anew.
type firstReading[S any] struct {
	read   func(context.Context) (S, error)
	first  S
	err    error
	served bool
}

// takeFirst takes the first reading of read now.
func takeFirst[S any](ctx context.Context, read func(context.Context) (S, error)) *firstReading[S] {
	f := &firstReading[S]{read: read}
	f.first, f.err = read(ctx)
	return f
}

// Sample is the reading taken already, then read's.
func (f *firstReading[S]) Sample(ctx context.Context) (S, error) {
	if !f.served {
		f.served = true
		return f.first, f.err
	}
	return f.read(ctx)
}

// dbFirst is a database Source with its first reading taken.
type dbFirst struct {
	*firstReading[dbload.Sample]
	src dbload.Source
}

func (d dbFirst) Close() error { return d.src.Close() }

// dbFirstStatements is a dbFirst whose source reads statements too.
type dbFirstStatements struct {
	dbFirst
	dbload.StatementSource
}

// dbReaders lists what a run reads of its databases: each --db, and the --server-metrics
// page when it is an exporter's URL, since a mysqld_exporter or postgres_exporter page serves
// the same figures.
func dbReaders(spec *Spec) []*dbReader {
	var out []*dbReader
	for _, t := range spec.Databases {
		out = append(out, &dbReader{target: t, flag: "--db"})
	}
	if u, err := url.Parse(spec.ServerSpec); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		out = append(out, &dbReader{target: dbload.Target{URL: u}, flag: "--server-metrics", exporter: true})
	}
	return out
}

// startDatabases takes every database's first reading, all at once so that slow ones do not
// add up, and warns on warn, one line each, of a --db that gave none: the run goes on. warned
// holds the databases warned of in earlier runs of a series, which are not warned of again.
// When ctx ends meanwhile, the readings end with it and the run is not to start: nothing is
// warned of and no reader is left to stop.
func startDatabases(ctx context.Context, readers []*dbReader, interval time.Duration, opts dbload.Options, warn io.Writer, warned map[string]bool) {
	var wg sync.WaitGroup
	for _, r := range readers {
		wg.Go(func() { r.start(ctx, interval, opts) })
	}
	wg.Wait()
	if ctx.Err() != nil {
		return
	}
	for _, r := range readers {
		if err := r.startErr; err != nil && !r.exporter && !warned[r.target.String()] {
			warned[r.target.String()] = true
			fmt.Fprintf(warn, "webload: warning: %s %s: no reading (%s); the run goes on without its figures\n",
				r.flag, r.target, dbload.Message(err))
		}
		if r.mon == nil || r.startErr != nil {
			continue // no reading at all: warned of above, the statements with the rest
		}
		if err := r.mon.StatementsError(); err != nil && !warned[r.target.String()+" statements"] {
			warned[r.target.String()+" statements"] = true
			fmt.Fprintf(warn, "webload: warning: %s %s: no statements (%s); the run goes on without them (--db-statements=false stops asking)\n",
				r.flag, r.target, dbload.Message(err))
		}
	}
}

func (r *dbReader) start(ctx context.Context, interval time.Duration, opts dbload.Options) {
	src, err := dbload.Open(r.target)
	if err != nil {
		r.startErr = err
		r.failed = &dbload.Summary{Source: r.target.String(), Kind: r.target.Kind, Failures: 1, FirstError: dbload.Message(err)}
		return
	}
	first := takeFirst(ctx, src.Sample)
	if ctx.Err() != nil {
		// Stopped before the load (Ctrl-C): there is no run to measure, and a final reading of
		// a database that does not answer would hold the exit up for its whole timeout.
		_ = src.Close()
		return
	}
	r.startErr = first.err
	if r.exporter && errors.Is(first.err, dbload.ErrNoDatabaseMetrics) {
		// A node exporter's page: reading it again for a database would only add to the
		// load of the server under test.
		_ = src.Close()
		return
	}
	var read dbload.Source = dbFirst{first, src}
	if ss, ok := src.(dbload.StatementSource); ok && opts.Statements {
		read = dbFirstStatements{dbFirst{first, src}, ss}
	}
	r.mon = dbload.StartWith(ctx, read, r.target.String(), interval, opts)
}

// exporterIsDatabase says whether the --server-metrics page gave a database's reading.
func exporterIsDatabase(readers []*dbReader) bool {
	for _, r := range readers {
		if r.exporter && r.mon != nil && r.startErr == nil {
			return true
		}
	}
	return false
}

// stopDatabases takes every database's final reading, all at once, and returns their
// summaries in the order of readers. An exporter page without database figures (a node
// exporter's) is left out.
func stopDatabases(readers []*dbReader) []dbload.Summary {
	sums := make([]dbload.Summary, len(readers))
	var wg sync.WaitGroup
	for i, r := range readers {
		switch {
		case r.failed != nil:
			sums[i] = *r.failed
			continue
		case r.mon == nil:
			continue // an exporter's page without a database's figures: Samples 0, dropped
		}
		wg.Go(func() { sums[i] = r.mon.Stop() })
	}
	wg.Wait()
	var out []dbload.Summary
	for i, s := range sums {
		if readers[i].exporter && s.Samples == 0 {
			continue
		}
		out = append(out, s)
	}
	return out
}
