package dbload

import "time"

// Summary is what a run reports of one database: the JSON's "database" (or one of
// "databases"). Counts are the differences between the readings before and after the run; a
// figure the source did not measure is absent (nil), never zero.
type Summary struct {
	// Source is the DSN or exporter URL, password hidden.
	Source string `json:"source"`
	// Kind is "mysql" or "postgres"; Version the server's own.
	Kind    string `json:"kind"`
	Version string `json:"version,omitempty"`
	// Samples counts successful readings and Failures failed ones (kept out of every figure);
	// FirstError is the first failure's message, password hidden.
	Samples    int    `json:"samples"`
	Failures   int    `json:"failures"`
	FirstError string `json:"first_error,omitempty"`
	// CountersReset is set when a counter went backwards between the first and last reading
	// (a restart, FLUSH STATUS, pg_stat_reset): the counts are then left out.
	CountersReset bool `json:"counters_reset,omitempty"`
	// Seconds is the time between the first and the last reading.
	Seconds float64 `json:"seconds"`
	// Note says how the figures were put together when they are not one run's own reading
	// (MergeShards takes one shard's).
	Note string `json:"note,omitempty"`

	// Queries counts the statements the database ran for its clients during the run, the
	// source's own readings left out; QueriesSource names the counter (Sample.QueriesSource).
	Queries       *int64  `json:"queries,omitempty"`
	QueriesSource string  `json:"queries_source,omitempty"`
	QueriesPerSec float64 `json:"queries_per_sec"`
	// QueriesPerTransaction is Queries over the run's transactions: the N+1 detector. Set by
	// PerTransaction, once the run's transactions are known.
	QueriesPerTransaction  *float64 `json:"queries_per_transaction,omitempty"`
	SlowQueries            *int64   `json:"slow_queries,omitempty"`
	RowsRead               *int64   `json:"rows_read,omitempty"`
	RowsReadPerTransaction *float64 `json:"rows_read_per_transaction,omitempty"`
	// ConnectionsMax is the most client connections open at any reading.
	ConnectionsMax int64 `json:"connections_max"`
	// BufferHitRatio is the percent of buffer cache reads served from memory.
	BufferHitRatio *float64 `json:"buffer_hit_ratio,omitempty"`
	// LockWaits counts waits for row locks during the run (MySQL), or is the most lock
	// requests seen waiting at one reading when LockWaitsPeak is set (PostgreSQL).
	LockWaits     *int64 `json:"lock_waits,omitempty"`
	LockWaitsPeak bool   `json:"lock_waits_peak,omitempty"`
	Deadlocks     *int64 `json:"deadlocks,omitempty"`
	// TempDiskTables (MySQL) and TempBytes (PostgreSQL): work that spilled to disk.
	TempDiskTables *int64 `json:"temp_disk_tables,omitempty"`
	TempBytes      *int64 `json:"temp_bytes,omitempty"`

	// Statements are what each statement did during the run (--db-statements), or why they
	// could not be read; absent when they were not asked for.
	Statements *Statements `json:"statements,omitempty"`

	// Series has one point per interval between readings, for the timeline.
	Series []Point `json:"series,omitempty"`
}

// Point is the database between two readings.
type Point struct {
	// At is when the interval ended; Seconds its width.
	At      time.Time `json:"at"`
	Seconds float64   `json:"seconds"`
	// QueriesPerSec is the statement rate over the interval; SlowQueries the slow ones in it
	// (absent when not measured).
	QueriesPerSec float64 `json:"queries_per_sec"`
	SlowQueries   *int64  `json:"slow_queries,omitempty"`
	// Connections are the client connections open at the interval's end.
	Connections int64 `json:"connections"`
}

// PerTransaction sets the per-transaction figures from the run's transaction count; with no
// transactions they stay absent.
func (s *Summary) PerTransaction(transactions int64) {
	if s.Statements != nil && s.Statements.Unavailable == "" {
		s.Statements = s.Statements.clone() // the caller's summary may share it
		s.Statements.perTransaction(transactions)
	}
	if transactions <= 0 {
		return
	}
	n := float64(transactions)
	if s.Queries != nil {
		q := float64(*s.Queries) / n
		s.QueriesPerTransaction = &q
	}
	if s.RowsRead != nil {
		r := float64(*s.RowsRead) / n
		s.RowsReadPerTransaction = &r
	}
}

// accumulator folds readings into a Summary as they arrive; a long run keeps one point per
// interval and no samples.
type accumulator struct {
	sum         Summary
	first, last Sample
	lockPeak    int64
}

func (a *accumulator) add(s Sample, err error) {
	if err != nil {
		if a.sum.Failures == 0 {
			a.sum.FirstError = Message(err)
		}
		a.sum.Failures++
		return
	}
	if a.sum.Samples == 0 {
		a.first = s
		a.sum.Kind, a.sum.Version, a.sum.QueriesSource = s.Kind, s.Version, s.QueriesSource
	} else {
		a.point(a.last, s)
	}
	a.last = s
	a.sum.Samples++
	a.sum.ConnectionsMax = max(a.sum.ConnectionsMax, s.Connections)
	a.lockPeak = max(a.lockPeak, s.LockWaits)
}

// point adds the interval from prev to s to the series.
func (a *accumulator) point(prev, s Sample) {
	secs := s.At.Sub(prev.At).Seconds()
	if secs <= 0 {
		return
	}
	p := Point{At: s.At, Seconds: secs, Connections: s.Connections}
	if d := s.Queries - prev.Queries; d >= 0 {
		p.QueriesPerSec = float64(d) / secs
	}
	if s.Has&prev.Has&HasSlowQueries != 0 && s.SlowQueries >= prev.SlowQueries {
		d := s.SlowQueries - prev.SlowQueries
		p.SlowQueries = &d
	}
	a.sum.Series = append(a.sum.Series, p)
}

// summary returns the figures so far: none but the connections before two readings.
func (a *accumulator) summary() Summary {
	s := a.sum
	if s.Samples < 2 {
		return s
	}
	f, l := a.first, a.last
	s.Seconds = l.At.Sub(f.At).Seconds()
	both := f.Has & l.Has
	delta := func(has Has, from, to int64) *int64 {
		if has != 0 && both&has == 0 {
			return nil
		}
		d := to - from
		if d < 0 {
			s.CountersReset = true
			return nil
		}
		return &d
	}
	s.Queries = delta(0, f.Queries, l.Queries)
	if s.Queries != nil && s.Seconds > 0 {
		s.QueriesPerSec = float64(*s.Queries) / s.Seconds
	}
	s.SlowQueries = delta(HasSlowQueries, f.SlowQueries, l.SlowQueries)
	s.RowsRead = delta(HasRowsRead, f.RowsRead, l.RowsRead)
	s.Deadlocks = delta(HasDeadlocks, f.Deadlocks, l.Deadlocks)
	s.TempDiskTables = delta(HasTempDiskTables, f.TempDiskTables, l.TempDiskTables)
	s.TempBytes = delta(HasTempBytes, f.TempBytes, l.TempBytes)
	switch {
	case both&HasLockWaitsNow != 0:
		peak := a.lockPeak
		s.LockWaits, s.LockWaitsPeak = &peak, true
	default:
		s.LockWaits = delta(HasLockWaits, f.LockWaits, l.LockWaits)
	}
	if reads, misses := delta(HasBuffer, f.BufferReads, l.BufferReads), delta(HasBuffer, f.BufferMisses, l.BufferMisses); reads != nil && misses != nil && *reads > 0 {
		r := 100 * (1 - float64(*misses)/float64(*reads))
		r = min(100, max(0, r))
		s.BufferHitRatio = &r
	}
	if s.CountersReset {
		s.Queries, s.QueriesPerSec = nil, 0
	}
	return s
}
