// Package dbload reads what the database under a site did while webload loaded it: how many
// statements it ran, how many went slow, how many rows it read, how its buffer cache and locks
// coped. A database migration is judged on these as much as on response times, and no load
// tester reports them beside its own figures; dbload reads them from the database itself
// (MySQL, MariaDB, Percona, PostgreSQL), or from a Prometheus exporter in front of it, with
// read-only statements over one short connection of its own.
//
// A Source gives cumulative counters (Sample); a Monitor reads one before, every interval
// during and after a run, and turns the differences into a Summary, the JSON's "database".
package dbload

import (
	"context"
	"time"
)

// Kinds of database, as Summary.Kind names them.
const (
	KindMySQL    = "mysql"    // MySQL, MariaDB and Percona Server
	KindPostgres = "postgres" // PostgreSQL
)

// Has marks the figures a Sample carries: not every database (or exporter) counts everything,
// and a figure that was not measured must read as absent, never as zero.
type Has uint16

// The optional figures. Queries and connections are always measured.
const (
	HasSlowQueries    Has = 1 << iota // statements slower than the server's own threshold
	HasRowsRead                       // rows read by the storage engine
	HasBuffer                         // buffer cache reads and misses
	HasLockWaits                      // waits for a row or table lock
	HasDeadlocks                      // transactions rolled back to break a deadlock
	HasTempDiskTables                 // MySQL: temporary tables that went to disk
	HasTempBytes                      // PostgreSQL: bytes written to temporary files
	// HasLockWaitsNow marks LockWaits as a gauge, the lock requests waiting at the reading
	// (PostgreSQL keeps no cumulative count of lock waits).
	HasLockWaitsNow
)

// Sample is one reading of a database's counters. Every count is cumulative since the server
// started (or its statistics were reset), as the server keeps it: a rate exists only between
// two samples. Connections is the one gauge.
type Sample struct {
	// At is when the reading was taken, by this machine's clock.
	At time.Time
	// Kind is KindMySQL or KindPostgres; Version the server's own version string
	// ("10.11.6-MariaDB-0+deb12u1", "15.5 (Debian 15.5-0+deb12u1)").
	Kind, Version string
	// QueriesSource names the counter Queries comes from: "Questions" (MySQL),
	// "pg_stat_statements.calls", or without pg_stat_statements
	// "xact_commit+xact_rollback-sessions" (PostgreSQL 14+: each session's start-up
	// transaction left out) or "xact_commit+xact_rollback"; an exporter's reading says which
	// metric. Transactions count a statement prepared on a round trip of its own twice.
	QueriesSource string
	// Queries counts the statements clients sent, less the ones this source sent itself to
	// take its readings, so that a run's count is the site's alone.
	Queries int64
	// Has says which of the optional counters below were read.
	Has Has
	// SlowQueries: MySQL Slow_queries (long_query_time). PostgreSQL keeps no count of slow
	// statements (pg_stat_statements keeps a mean per statement, not a count of slow calls),
	// so there it is not measured.
	SlowQueries int64
	// RowsRead: MySQL Innodb_rows_read (MariaDB 10.6+ has only Rows_read, all engines);
	// PostgreSQL seq_tup_read + idx_tup_fetch of the user tables of the database connected to
	// (the site's own rows: the catalog rows every reading and connection reads are left out);
	// tup_returned + tup_fetched through an exporter.
	RowsRead int64
	// BufferReads are logical reads of the buffer cache (InnoDB read requests, PostgreSQL
	// blks_hit + blks_read); BufferMisses the ones that had to go to storage.
	BufferReads, BufferMisses int64
	// LockWaits: MySQL Innodb_row_lock_waits; PostgreSQL, lock requests waiting at the time
	// of the reading (a gauge there: PostgreSQL keeps no cumulative count).
	LockWaits int64
	// Deadlocks: MySQL Innodb_deadlocks (MariaDB, Percona); PostgreSQL deadlocks.
	Deadlocks int64
	// TempDiskTables: MySQL Created_tmp_disk_tables. TempBytes: PostgreSQL temp_bytes.
	TempDiskTables, TempBytes int64
	// Connections are the client connections open at the time of the reading, this source's
	// own left out.
	Connections int64
}

// Source reads samples. Implementations must honour ctx, so that a reading is bounded in time,
// and use one connection of their own at a time.
type Source interface {
	Sample(ctx context.Context) (Sample, error)
	// Close releases the connection; the Source is not used after it.
	Close() error
}
