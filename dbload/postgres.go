package dbload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Bounds on the source's own work, so that a database that hangs costs a failed reading, not a
// stuck monitor.
const (
	pgConnectTimeout = 5 * time.Second
)

// The counter Queries comes from. A new session runs one transaction of its own as it starts
// (reading the catalogues), which is no statement of the client's: from PostgreSQL 14 on,
// pg_stat_database counts sessions, and they are taken out.
const (
	pgSourceCalls    = "pg_stat_statements.calls"
	pgSourceXacts    = "xact_commit+xact_rollback"
	pgSourceStmXacts = "xact_commit+xact_rollback-sessions"
)

// postgresSource reads a PostgreSQL server's statistics views over one connection of its own,
// opened at the first Sample and again after a failure. It is used by one goroutine at a time
// (Monitor's sampling loop), so it needs no lock.
//
// Each reading is one statement in one transaction (pgSampleSQL). The statements and transactions
// the source sent itself are counted (ownCalls, ownXacts) and taken out of Queries. With
// pg_stat_statements that is exact, as it counts a statement when it ends. Transactions are
// exact from PostgreSQL 15 on, where the source has the server publish its own counts as each
// reading ends (pg_stat_force_next_flush), so it knows which of them a reading holds.
//
// What the site's sessions did reaches pg_stat_database late: a session publishes its counts
// when it closes, or at most once a second as it works and up to 10 s later once idle. A pool
// that keeps its connections open can leave the last seconds of a run out of the final
// reading; pg_stat_statements has no such delay. The source's own reading adds a few buffer
// reads to BufferReads, which it cannot tell apart; RowsRead counts the user tables' rows, which
// it does not read.
type postgresSource struct {
	cfg *pgx.ConnConfig
	// name is the DSN with the password hidden; secrets its credentials (Target.Secrets),
	// removed from any message that might echo them.
	name    string
	secrets []string

	conn *pgx.Conn
	// What the probe learnt about the connection.
	version string
	major   int
	// stmts is pg_stat_statements, schema-qualified, when it is readable; "" otherwise, and
	// stmtsWhy says why.
	stmts, stmtsWhy string
	// source is the counter Queries comes from, chosen at the first connection and kept:
	// a count that moved from one counter to another mid-run would mean nothing.
	source string
	// flush is set when the source may call pg_stat_force_next_flush (PostgreSQL 15+).
	flush bool

	// ownXacts and ownCalls count the transactions and pg_stat_statements calls this source
	// caused that the server's counters already hold.
	ownXacts, ownCalls int64
}

// newPostgres prepares a reader of t; it does not connect.
func newPostgres(t Target) (Source, error) {
	p := &postgresSource{name: t.String(), secrets: t.Secrets()}
	cfg, err := pgx.ParseConfig(t.URL.String())
	if err != nil {
		return nil, p.wrap("parsing", err)
	}
	if t.Password != "" {
		cfg.Password = t.Password // the DSN has none: pgx may have taken the process's own
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = pgConnectTimeout
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if cfg.RuntimeParams["application_name"] == "" {
		// So that a DBA looking at pg_stat_activity knows the extra session.
		cfg.RuntimeParams["application_name"] = "webload"
	}
	p.cfg = cfg
	return p, nil
}

// Sample reads the counters, connecting first when there is no connection; after any failure
// the connection is dropped and the next Sample opens a new one.
func (p *postgresSource) Sample(ctx context.Context) (Sample, error) {
	var conn *pgx.Conn
	if p.conn == nil {
		c, err := p.dial(ctx)
		if err != nil {
			return Sample{}, p.wrap("connecting to", err)
		}
		conn = c
	}
	ctx, cancel := graceful(ctx)
	defer cancel()
	if conn != nil {
		if err := p.connect(ctx, conn); err != nil {
			return Sample{}, p.wrap("connecting to", err)
		}
	}
	at := time.Now()
	row, err := p.exec(ctx, pgSampleSQL(p.major, p.stmts, p.flush))
	if err != nil {
		p.drop()
		return Sample{}, p.wrap("reading", err)
	}
	c, err := parsePgCounters(row)
	if err != nil {
		p.drop()
		return Sample{}, p.wrap("reading", err)
	}
	s := c.sample(at, p.version)
	switch s.QueriesSource = p.source; p.source {
	case pgSourceCalls:
		s.Queries = c.calls - p.ownCalls
	case pgSourceStmXacts:
		s.Queries = c.xacts - c.sessions - p.ownXacts
	default:
		s.Queries = c.xacts - p.ownXacts
	}
	// This reading's own statement and transaction are in the counters from now on: the
	// server published them before it answered (with flush) or will soon (without).
	p.ownXacts++
	p.ownCalls++
	return s, nil
}

// dial opens a connection. It sends no statement of the reader's, so it ends as soon as the
// caller cancels (Ctrl-C while a database that accepts connections but never answers is read
// before the load), where a statement gets cancelGrace. (A server before 14 counts a
// start-up transaction that a cut-off dial may leave out of the reader's own: one at most,
// and only at a run's end, when its periodic reading is cut off.)
func (p *postgresSource) dial(ctx context.Context) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	return pgx.ConnectConfig(ctx, p.cfg)
}

// connect takes conn, just dialled, as the reader's connection and probes what it can read.
func (p *postgresSource) connect(ctx context.Context, conn *pgx.Conn) error {
	p.conn = conn
	p.version = conn.PgConn().ParameterStatus("server_version")
	p.major = pgMajorVersion(p.version)
	if p.major < 14 {
		// The start-up transaction, published before the server answers (see pgSourceStmXacts).
		p.ownXacts++
	}
	row, err := p.exec(ctx, pgProbeSQL(p.major))
	if err != nil {
		p.drop()
		return err
	}
	pr, err := parsePgProbe(row, p.major)
	if err != nil {
		p.drop()
		return err
	}
	p.ownXacts++
	p.ownCalls++
	p.flush = pr.flush
	source := pgSourceXacts
	switch {
	case pr.stmts != "":
		source = pgSourceCalls
	case p.major >= 14:
		source = pgSourceStmXacts
	}
	switch {
	case p.source == "":
		p.source = source
	case p.source == pgSourceCalls && source != pgSourceCalls:
		p.drop()
		return errors.New("pg_stat_statements, which the first readings counted statements with, can no longer be read")
	}
	if p.source == pgSourceCalls {
		p.stmts = pr.stmts
	}
	p.stmtsWhy = pr.why
	if p.flush {
		// The probe's transaction would otherwise be published up to 10 s later, inside
		// some reading or other; publishing it now makes the count exact from the first.
		if _, err := p.exec(ctx, "SELECT pg_stat_force_next_flush()"); err != nil {
			p.drop()
			return err
		}
		p.ownXacts++
		p.ownCalls++
	}
	return nil
}

// exec runs one statement over the simple protocol, which sends it in one round trip and one
// transaction (the extended protocol would add a transaction for the Parse), and returns its
// one row as text.
func (p *postgresSource) exec(ctx context.Context, sql string) ([][]byte, error) {
	rows, err := p.execRows(ctx, sql)
	if err != nil {
		return nil, err
	}
	if len(rows) != 1 {
		return nil, fmt.Errorf("statement returned %d rows, want one", len(rows))
	}
	return rows[0], nil
}

// execRows runs one statement as exec does and returns its rows as text.
func (p *postgresSource) execRows(ctx context.Context, sql string) ([][][]byte, error) {
	results, err := p.conn.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Severity == "ERROR" {
			// A statement that failed is a rolled-back transaction, counted as one. A FATAL
			// one ended the session instead, almost always while it was idle between
			// readings (a terminated session, a server going down), with no transaction.
			p.ownXacts++
		}
		return nil, err
	}
	if len(results) != 1 {
		return nil, fmt.Errorf("statement returned %d results, want one", len(results))
	}
	return results[0].Rows, nil
}

// drop closes the connection after a failure; the next Sample opens another.
func (p *postgresSource) drop() {
	if p.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = p.conn.Close(ctx) // the connection is being abandoned; its close error tells nothing
	p.conn = nil
}

// Close closes the connection, if any.
func (p *postgresSource) Close() error {
	p.drop()
	return nil
}

// wrap says what was being done to which database, and removes the password from the
// driver's message in case it echoes it.
func (p *postgresSource) wrap(doing string, err error) error {
	msg := fmt.Sprintf("%s postgres %s: %v", doing, p.name, err)
	for _, v := range p.secrets {
		msg = strings.ReplaceAll(msg, v, "xxxxx")
	}
	return &pgRedactedError{msg: msg, err: err}
}

// pgRedactedError shows a message with the password removed and still unwraps to the driver's
// error, for errors.Is and errors.As.
type pgRedactedError struct {
	msg string
	err error
}

func (e *pgRedactedError) Error() string { return e.msg }
func (e *pgRedactedError) Unwrap() error { return e.err }
