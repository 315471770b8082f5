package dbload

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// pgProbeSQL asks, once per connection, whether pg_stat_statements can be read (its schema, and
// whether it tracks anything), and on PostgreSQL 15+ whether the source may make the server
// publish its statistics at once, and sets the session to read them fresh (not a snapshot
// kept for the transaction; each reading is its own transaction anyway).
func pgProbeSQL(major int) string {
	const common = `SELECT (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_stat_statements'),
       current_setting('pg_stat_statements.track', true)`
	if major < 15 {
		return common
	}
	return common + `,
       has_function_privilege('pg_stat_force_next_flush()', 'execute'),
       set_config('stats_fetch_consistency', 'none', false)`
}

// pgProbe is what pgProbeSQL learnt.
type pgProbe struct {
	// stmts is pg_stat_statements, schema-qualified, or "" when it cannot be read: not
	// installed in this database, not loaded (shared_preload_libraries), or tracking nothing.
	stmts string
	// why says, when stmts is "", what is missing and how to turn it on.
	why   string
	flush bool
}

// parsePgProbe reads pgProbeSQL's row.
func parsePgProbe(row [][]byte, major int) (pgProbe, error) {
	want := 2
	if major >= 15 {
		want = 4
	}
	if len(row) != want {
		return pgProbe{}, fmt.Errorf("probe returned %d columns, want %d", len(row), want)
	}
	var p pgProbe
	// A NULL column comes back as nil: no extension, or its library is not loaded so the
	// setting does not exist.
	switch schema, track := row[0], row[1]; {
	case track == nil:
		p.why = "pg_stat_statements is not loaded: add it to shared_preload_libraries in postgresql.conf, restart PostgreSQL, " +
			"then run CREATE EXTENSION pg_stat_statements in the DSN's database"
	case schema == nil:
		p.why = "the pg_stat_statements extension is not in the DSN's database: run CREATE EXTENSION pg_stat_statements there"
	case string(track) != "top" && string(track) != "all":
		p.why = "pg_stat_statements.track is " + string(track) + ": set it to top in postgresql.conf and reload"
	default:
		p.stmts = string(schema) + ".pg_stat_statements"
	}
	if major >= 15 {
		p.flush = string(row[2]) == "t"
	}
	return p, nil
}

// pgSampleSQL reads every counter in one statement. The database figures are summed over all
// databases, since the site may use another than the DSN's. Connections are client sessions
// (not PostgreSQL's own workers), this one left out; an account without pg_read_all_stats
// sees no backend_type for other accounts' sessions, and there a client is a session with a
// database and a user (PostgreSQL's workers lack one or the other). Sessions (PostgreSQL 14+) are counted
// because each runs one transaction of its own as it starts.
func pgSampleSQL(major int, stmts string, flush bool) string {
	calls, sessions := "0", "0"
	if stmts != "" {
		calls = "(SELECT coalesce(sum(calls), 0)::bigint FROM " + stmts + ")"
	}
	if major >= 14 {
		sessions = "coalesce(sum(sessions), 0)::bigint"
	}
	var b strings.Builder
	b.WriteString(`SELECT coalesce(sum(xact_commit + xact_rollback), 0)::bigint,
       (SELECT CASE WHEN count(*) = 0 THEN -1 ELSE coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0) END::bigint FROM pg_stat_user_tables),
       coalesce(sum(blks_hit + blks_read), 0)::bigint,
       coalesce(sum(blks_read), 0)::bigint,
       coalesce(sum(deadlocks), 0)::bigint,
       coalesce(sum(temp_bytes), 0)::bigint,
       (SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND (backend_type = 'client backend'
           OR backend_type IS NULL AND datid IS NOT NULL AND usesysid IS NOT NULL)),
       (SELECT count(*) FROM pg_locks WHERE NOT granted),
       `)
	b.WriteString(calls + ",\n       " + sessions)
	if flush {
		// Publishes this reading's own transaction as it ends, so that the next reading
		// holds it for certain.
		b.WriteString(",\n       pg_stat_force_next_flush()")
	}
	b.WriteString("\nFROM pg_stat_database")
	return b.String()
}

// pgCounters are pgSampleSQL's columns.
type pgCounters struct {
	xacts, rowsRead, bufferReads, bufferMisses, deadlocks, tempBytes int64
	connections, lockWaits, calls, sessions                          int64
}

// pgCountersColumns is how many of pgSampleSQL's columns are counters; a last one, when present,
// is the flush's empty result.
const pgCountersColumns = 10

// parsePgCounters reads pgSampleSQL's row: whole numbers in text, none negative.
func parsePgCounters(row [][]byte) (pgCounters, error) {
	if len(row) != pgCountersColumns && len(row) != pgCountersColumns+1 {
		return pgCounters{}, fmt.Errorf("reading returned %d columns, want %d", len(row), pgCountersColumns)
	}
	var c pgCounters
	fields := []*int64{&c.xacts, &c.rowsRead, &c.bufferReads, &c.bufferMisses, &c.deadlocks,
		&c.tempBytes, &c.connections, &c.lockWaits, &c.calls, &c.sessions}
	for i, f := range fields {
		n, err := strconv.ParseInt(string(row[i]), 10, 64)
		noTables := f == &c.rowsRead && n == -1 // the DSN's database has no tables: rows not measured
		if err != nil || n < 0 && !noTables {
			return pgCounters{}, fmt.Errorf("column %d: %q is not a count", i+1, row[i])
		}
		*f = n
	}
	return c, nil
}

// has says which figures the counters hold: the rows read only when the DSN's database has
// tables of its own, since the user tables read are those of the database connected to, and a
// DSN naming another database than the site's would read as a site that reads no rows.
func (c pgCounters) has() Has {
	h := HasBuffer | HasDeadlocks | HasTempBytes | HasLockWaitsNow
	if c.rowsRead >= 0 {
		h |= HasRowsRead
	}
	return h
}

// sample is the reading the counters make; the caller sets Queries from the right counter.
func (c pgCounters) sample(at time.Time, version string) Sample {
	return Sample{
		At:           at,
		Kind:         KindPostgres,
		Version:      version,
		Has:          c.has(),
		RowsRead:     c.rowsRead,
		BufferReads:  c.bufferReads,
		BufferMisses: c.bufferMisses,
		LockWaits:    c.lockWaits,
		Deadlocks:    c.deadlocks,
		TempBytes:    c.tempBytes,
		Connections:  c.connections,
	}
}

// pgMajorVersion is the major release of a server_version ("15.5 (Debian 15.5-0+deb12u1)" is
// 15, "9.6.24" is 9, "17beta1" is 17), or 0 when it does not start with a number.
func pgMajorVersion(v string) int {
	end := 0
	for end < len(v) && end < 6 && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(v[:end])
	if err != nil {
		return 0
	}
	return n
}
