package dbload

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// deadlockSource says where a MySQL server's deadlock count comes from.
type deadlockSource uint8

const (
	deadlocksUnknown deadlockSource = iota // not decided before the first reading
	deadlocksStatus                        // Innodb_deadlocks (MariaDB, Percona Server)
	deadlocksMetric                        // INNODB_METRICS lock_deadlocks (MySQL 5.6+, when enabled)
	deadlocksNone                          // neither: the figure stays absent
)

// mysqlDeadlockMetric reads MySQL's own deadlock count, which it keeps only in
// INNODB_METRICS and only while that counter is enabled (it is by default from 8.0). A
// counter that is on has no TIME_DISABLED, in MySQL and MariaDB alike (whose column for the
// state is named differently).
const mysqlDeadlockMetric = "SELECT `COUNT` FROM information_schema.INNODB_METRICS " +
	"WHERE NAME = 'lock_deadlocks' AND TIME_ENABLED IS NOT NULL AND TIME_DISABLED IS NULL"

// mysqlSource reads MySQL, MariaDB and Percona Server through SHOW GLOBAL STATUS, which every
// server since 5.0.2 answers without performance_schema, to any account (USAGE is enough). It is used by one
// goroutine at a time (the Monitor's), so its counts need no lock.
type mysqlSource struct {
	db       *sql.DB
	name     string // the DSN, password hidden
	password string // scrubbed from any error text, in case a driver message ever quotes it
	version  string
	// sent counts the statements this source sent that the server counted in Questions,
	// up to the latest SHOW GLOBAL STATUS: the reading's Queries leave them out.
	sent      int64
	deadlocks deadlockSource
	// questions and uptime are the server's Questions and Uptime at the last reading: either
	// going back means a restart (or a fail-over), which counts from zero again.
	questions, uptime int64
}

// newMySQL prepares the reader without connecting: database/sql connects on the first
// Sample and again after a connection fails.
func newMySQL(t Target) (Source, error) {
	cfg, err := mysqlConfig(t)
	if err != nil {
		return nil, err
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", t, err)
	}
	db := sql.OpenDB(conn)
	// One connection, kept between readings: the reader must not add to the load it measures.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	return &mysqlSource{db: db, name: t.String(), password: cfg.Passwd}, nil
}

// Sample reads the server's counters: its version on the first reading, then SHOW GLOBAL
// STATUS, one round trip each (two on MySQL, whose deadlocks are in INNODB_METRICS).
func (m *mysqlSource) Sample(ctx context.Context) (Sample, error) {
	if err := m.connect(ctx); err != nil {
		return Sample{}, m.wrap("connecting", err)
	}
	ctx, cancel := graceful(ctx)
	defer cancel()
	if m.version == "" {
		v, err := m.serverVersion(ctx)
		if err != nil {
			return Sample{}, m.wrap("asking its version", err)
		}
		m.version = v
	}
	at := time.Now()
	status, err := m.globalStatus(ctx)
	if err != nil {
		return Sample{}, m.wrap("SHOW GLOBAL STATUS", err)
	}
	// Taken here: a statement this reader sends after the status (INNODB_METRICS) is in the
	// next reading's Questions, and in sent by then.
	own := m.sent
	s, err := mysqlStatus(status)
	if err != nil {
		return Sample{}, m.wrap("SHOW GLOBAL STATUS", err)
	}
	s.At, s.Version = at, m.version
	if m.restarted(s.Queries, status) {
		// The new server has counted one statement of this reader's: this status.
		own, m.sent = 1, 1
	}
	s.Queries = max(0, s.Queries-own)
	s.Connections = max(0, s.Connections-1) // this reader's own connection
	if err := m.addDeadlocks(ctx, &s); err != nil {
		return Sample{}, m.wrap("INNODB_METRICS", err)
	}
	return s, nil
}

// connect makes sure the reader has its connection, opening it when it has none (the first
// reading, or the one after a failure). Connecting sends no statement (the handshake and the
// login are not in Questions), so nothing of the reader's can land in the counts when it is cut
// off: it ends as soon as the caller cancels (Ctrl-C while a database that accepts connections
// but never answers is read before the load), where a statement gets cancelGrace.
func (m *mysqlSource) connect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	c, err := m.db.Conn(ctx)
	if err != nil {
		return err
	}
	return c.Close() // back to the pool of one, where the statements find it
}

// serverVersion is VERSION() with the server's comment, which alone tells Percona Server
// ("8.0.35-27 (Percona Server (GPL), Release '27', …)") from MySQL ("8.0.35 (MySQL
// Community Server - GPL)"), in one statement.
func (m *mysqlSource) serverVersion(ctx context.Context) (string, error) {
	rows, err := m.query(ctx, "SELECT VERSION(), @@version_comment")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var v, comment sql.NullString
	if !rows.Next() {
		return "", errors.Join(sql.ErrNoRows, rows.Err())
	}
	if err := rows.Scan(&v, &comment); err != nil {
		return "", err
	}
	if c := strings.TrimSpace(comment.String); c != "" {
		return v.String + " (" + c + ")", nil
	}
	return v.String, nil
}

// restarted says whether the server's counters started again since the last reading, given
// this reading's Questions and status.
func (m *mysqlSource) restarted(questions int64, status map[string]string) bool {
	uptime, err := mysqlValue(status, "uptime")
	if err != nil {
		uptime = m.uptime // not told: no sign either way
	}
	again := m.questions > 0 && (questions < m.questions || uptime < m.uptime)
	m.questions, m.uptime = questions, uptime
	return again
}

// addDeadlocks completes a reading whose status has no Innodb_deadlocks (MySQL) from
// INNODB_METRICS, when the first reading found that counter enabled.
func (m *mysqlSource) addDeadlocks(ctx context.Context, s *Sample) error {
	if m.deadlocks == deadlocksUnknown {
		if s.Has&HasDeadlocks != 0 {
			m.deadlocks = deadlocksStatus
			return nil
		}
		err := m.queryRow(ctx, mysqlDeadlockMetric, &s.Deadlocks)
		var serverErr *mysql.MySQLError
		switch {
		case err == nil:
			m.deadlocks = deadlocksMetric
			s.Has |= HasDeadlocks
		case errors.Is(err, sql.ErrNoRows) || errors.As(err, &serverErr):
			// The server said no for good: no such table (before 5.6), an account without
			// the PROCESS privilege that INNODB_METRICS asks for, or the counter is off.
			// The figure stays absent.
			m.deadlocks = deadlocksNone
		default:
			return err // the connection failed: ask again on the next reading
		}
		return nil
	}
	if m.deadlocks != deadlocksMetric {
		return nil
	}
	if err := m.queryRow(ctx, mysqlDeadlockMetric, &s.Deadlocks); err != nil {
		return err
	}
	s.Has |= HasDeadlocks
	return nil
}

// globalStatus runs SHOW GLOBAL STATUS and returns the rows a reading uses, by lower-case
// name. The others (some five hundred) are read as raw bytes and dropped without a copy.
func (m *mysqlSource) globalStatus(ctx context.Context) (map[string]string, error) {
	rows, err := m.query(ctx, "SHOW GLOBAL STATUS")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	status := make(map[string]string, 16)
	var name, value sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&name, &value); err != nil {
			return nil, err
		}
		if key, ok := mysqlWanted(name); ok {
			status[key] = string(value)
		}
	}
	return status, rows.Err()
}

// queryRow runs a one-row, one-column statement; no row is sql.ErrNoRows.
func (m *mysqlSource) queryRow(ctx context.Context, q string, dest any) error {
	rows, err := m.query(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := rows.Scan(dest); err != nil {
		return err
	}
	return rows.Close()
}

// query runs one statement and counts it as the reader's own when the server received it:
// it answered, with rows or with an error of its own (Questions counts failed statements
// too). A statement lost with the connection is not counted; the readings around it differ
// by at most that one.
func (m *mysqlSource) query(ctx context.Context, q string) (*sql.Rows, error) {
	rows, err := m.db.QueryContext(ctx, q)
	var serverErr *mysql.MySQLError
	if err == nil || errors.As(err, &serverErr) {
		m.sent++
	}
	return rows, err
}

// wrap says what was being read, of which database, without the password.
func (m *mysqlSource) wrap(what string, err error) error {
	if m.password != "" && strings.Contains(err.Error(), m.password) {
		err = errors.New(strings.ReplaceAll(err.Error(), m.password, "xxxxx"))
	}
	return fmt.Errorf("reading %s: %s: %w", m.name, what, err)
}

// Close closes the connection.
func (m *mysqlSource) Close() error {
	return m.db.Close()
}
