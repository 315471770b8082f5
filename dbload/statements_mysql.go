package dbload

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-sql-driver/mysql"
)

// mysqlStatementsCheck asks whether performance_schema is on and keeps statement digests;
// without either the digest table is empty, which would read as a site that ran nothing.
const mysqlStatementsCheck = "SELECT @@performance_schema, " +
	"(SELECT ENABLED FROM performance_schema.setup_consumers WHERE NAME = 'statements_digest')"

// mysqlStatementsSQL reads the digest table (MySQL 5.6+, MariaDB 10.0+), one row per digest
// and schema. Rows counts what a statement returned or changed, as PostgreSQL's rows does. The
// row without a DIGEST sums the statements the full table had no room for. The fastest and
// slowest calls bound the slow ones (slowBounds): MariaDB keeps no histogram per digest, and
// MySQL 8's (events_statements_histogram_by_digest) would need a reading per digest.
var mysqlStatementsSQL = fmt.Sprintf("SELECT DIGEST, LEFT(DIGEST_TEXT, %d), COUNT_STAR, SUM_TIMER_WAIT, "+
	"SUM_ROWS_SENT + SUM_ROWS_AFFECTED, MIN_TIMER_WAIT, MAX_TIMER_WAIT "+
	"FROM performance_schema.events_statements_summary_by_digest", maxStatementText+1)

// mysqlOverflowText names the digest table's row of statements it had no room for.
const mysqlOverflowText = "(statements the digest table had no room for: raise performance_schema_digests_size)"

// Statements reads performance_schema's statement digests over the reader's connection. Its
// two statements are the reader's own, left out of Queries.
func (m *mysqlSource) Statements(ctx context.Context) (StatementSnapshot, error) {
	if err := m.connect(ctx); err != nil {
		return StatementSnapshot{}, m.wrap("connecting", err)
	}
	ctx, cancel := graceful(ctx)
	defer cancel()
	var on, digests sql.NullString
	rows, err := m.query(ctx, mysqlStatementsCheck)
	if err == nil {
		if rows.Next() {
			err = rows.Scan(&on, &digests)
		}
		err = errors.Join(err, rows.Close(), rows.Err())
	}
	switch {
	case mysqlRefused(err):
		return StatementSnapshot{}, noStatements("performance_schema cannot be read (" + Message(err) +
			"): it needs MySQL 5.6+ or MariaDB 10.0+, and SELECT ON performance_schema.* granted to this account")
	case err != nil:
		return StatementSnapshot{}, m.wrap("asking for performance_schema", err)
	case on.String != "1":
		return StatementSnapshot{}, noStatements("performance_schema is off: set performance_schema=ON under [mysqld] " +
			"in the server's configuration and restart it (it cannot be turned on while the server runs)")
	case digests.String != "YES":
		return StatementSnapshot{}, noStatements("performance_schema keeps no statement digests: run UPDATE performance_schema.setup_consumers " +
			"SET ENABLED = 'YES' WHERE NAME = 'statements_digest' (performance-schema-consumer-statements-digest=ON in the configuration keeps it on)")
	}
	snap, err := m.digests(ctx)
	switch {
	case mysqlRefused(err):
		return StatementSnapshot{}, noStatements("performance_schema.events_statements_summary_by_digest cannot be read (" + Message(err) +
			"): GRANT SELECT ON performance_schema.* to this account")
	case err != nil:
		return StatementSnapshot{}, m.wrap("reading performance_schema's statement digests", err)
	}
	return snap, nil
}

// mysqlRefused tells whether the server answered err itself (no such table, no privilege),
// which asking again will not change.
func mysqlRefused(err error) bool {
	var serverErr *mysql.MySQLError
	return errors.As(err, &serverErr)
}

// digests reads the digest table.
func (m *mysqlSource) digests(ctx context.Context) (StatementSnapshot, error) {
	snap := StatementSnapshot{Source: StatementsMySQL, byID: map[string]stmtCounts{}}
	rows, err := m.query(ctx, mysqlStatementsSQL)
	if err != nil {
		return snap, err
	}
	defer rows.Close()
	var digest, text, calls, timer, affected, fastest, slowest sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&digest, &text, &calls, &timer, &affected, &fastest, &slowest); err != nil {
			return snap, err
		}
		c, err := mysqlDigestRow(text, calls, timer, affected)
		if err == nil {
			err = c.mysqlTimes(fastest, slowest)
		}
		if err != nil {
			return snap, err
		}
		id := string(digest)
		if digest == nil {
			c.text = mysqlOverflowText
		}
		prev := snap.byID[id]
		prev.add(c)
		snap.byID[id] = prev
	}
	return snap, rows.Err()
}

// mysqlDigestRow reads one digest's counts; the timer is in picoseconds.
func mysqlDigestRow(text, calls, timer, rows []byte) (stmtCounts, error) {
	c := stmtCounts{text: string(text)}
	var err error
	if c.calls, err = strconv.ParseInt(string(calls), 10, 64); err != nil || c.calls < 0 {
		return c, fmt.Errorf("COUNT_STAR %q is not a count", calls)
	}
	ps, err := strconv.ParseUint(string(timer), 10, 64)
	if err != nil {
		return c, fmt.Errorf("SUM_TIMER_WAIT %q is not a time", timer)
	}
	c.total = time.Duration(ps / 1000)
	if c.rows, err = strconv.ParseInt(string(rows), 10, 64); err != nil || c.rows < 0 {
		return c, fmt.Errorf("rows %q is not a count", rows)
	}
	return c, nil
}

// mysqlTimes sets the fastest and slowest calls from MIN_TIMER_WAIT and MAX_TIMER_WAIT, in
// picoseconds.
func (c *stmtCounts) mysqlTimes(fastest, slowest []byte) error {
	lo, err := strconv.ParseUint(string(fastest), 10, 64)
	if err != nil {
		return fmt.Errorf("MIN_TIMER_WAIT %q is not a time", fastest)
	}
	hi, err := strconv.ParseUint(string(slowest), 10, 64)
	if err != nil {
		return fmt.Errorf("MAX_TIMER_WAIT %q is not a time", slowest)
	}
	c.fastest, c.slowest, c.timed = time.Duration(lo/1000), time.Duration(hi/1000), true
	return nil
}
