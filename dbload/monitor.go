package dbload

import (
	"context"
	"sync"
	"time"

	"github.com/webload/webload/internal/sampling"
)

// Options vary what a Monitor reads besides the counters.
type Options struct {
	// Statements reads the statement summaries before and after the run, when the Source is
	// a StatementSource (an exporter is not), keeping the Top by total time (0: none listed,
	// all summed).
	Statements bool
	Top        int
	// Slow is the time over which a statement's call counts as slow (0: none is judged).
	Slow time.Duration
}

// Monitor samples a database before, every interval during, and after a run.
type Monitor struct {
	src  Source
	loop *sampling.Loop[Sample]
	// acc is written by Start, then only by the sampling goroutine, then only by Stop once
	// that goroutine has exited: ownership passes along, so no lock is needed.
	acc accumulator
	// stmts is read by Start before the sampling goroutine starts and by Stop after it has
	// exited; nil when statements are not read.
	stmts *stmtReading

	closeOnce sync.Once
}

// stmtReading is the statements' reading before the run, or why there is none.
type stmtReading struct {
	src    StatementSource
	top    int
	slow   time.Duration
	before StatementSnapshot
	err    error
	// after is what Stop made of the readings.
	after *Statements
}

// Start takes the first reading at once, before the load, then one every interval until
// Stop; an interval <= 0 takes only the before and after readings. A database that cannot be
// read costs failed readings, never the run. name is what Summary.Source reports (Target's
// String, password hidden).
func Start(ctx context.Context, src Source, name string, interval time.Duration) *Monitor {
	return StartWith(ctx, src, name, interval, Options{})
}

// StartWith is Start, reading what opts asks for besides. The statements are read once before
// the first sample and once after the last, over the source's connection: their own
// statements are the reader's, which its counts leave out.
func StartWith(ctx context.Context, src Source, name string, interval time.Duration, opts Options) *Monitor {
	m := &Monitor{src: src}
	m.acc.sum.Source = name
	if ss, ok := src.(StatementSource); ok && opts.Statements {
		m.stmts = &stmtReading{src: ss, top: opts.Top, slow: opts.Slow}
		m.stmts.before, m.stmts.err = ss.Statements(ctx)
	}
	m.loop = sampling.Start(ctx, src.Sample, m.acc.add, interval)
	return m
}

// StatementsError is why the statements could not be read before the run (wrapping
// ErrNoStatements when the database keeps none to read), nil when they were or were not
// asked for. It may be called once StartWith returns.
func (m *Monitor) StatementsError() error {
	if m.stmts == nil {
		return nil
	}
	return m.stmts.err
}

// Stop takes the final reading, closes the source and returns the summary. Later calls
// return the same summary without reading again.
func (m *Monitor) Stop() Summary {
	m.loop.Stop() // once it returns, nothing adds to acc any more
	m.closeOnce.Do(func() {
		m.readStatements()
		_ = m.src.Close() // the readings are taken; a failed close loses nothing
	})
	s := m.acc.summary()
	if st := m.stmts; st != nil && st.after != nil {
		s.Statements = st.after.clone()
	}
	return s
}

// readStatements reads the statements after the run and keeps the difference, or says why
// there is none.
func (m *Monitor) readStatements() {
	st := m.stmts
	if st == nil {
		return
	}
	if st.err != nil {
		st.after = &Statements{Unavailable: Message(st.err)}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	after, err := st.src.Statements(ctx)
	if err != nil {
		st.after = &Statements{Source: st.before.Source, Unavailable: "the reading after the run failed: " + Message(err)}
		return
	}
	st.after = diffStatements(st.before, after, st.top, st.slow)
}

// noStatements is ErrNoStatements, saying what is missing and how to turn it on.
func noStatements(why string) error {
	return &noStatementsError{why}
}

type noStatementsError struct{ why string }

func (e *noStatementsError) Error() string        { return e.why }
func (e *noStatementsError) Is(target error) bool { return target == ErrNoStatements }
