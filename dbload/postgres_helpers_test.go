package dbload

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/webload/webload/internal/dbtest"
)

// pgServer starts PostgreSQL for these tests (autovacuum off, as dbtest starts it), with
// deadlocks found after 100 ms rather than 1 s.
func pgServer(t *testing.T, statements bool) *dbtest.Server {
	t.Helper()
	s := dbtest.Postgres(t, dbtest.PostgresOptions{StatStatements: statements})
	s.Exec(t, "ALTER SYSTEM SET deadlock_timeout = '100ms'")
	s.Exec(t, "SELECT pg_reload_conf()")
	return s
}

// openPostgres opens a source on dsn, closed when the test ends.
func openPostgres(t *testing.T, dsn string) Source {
	t.Helper()
	target, err := ParseTarget(dsn)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Open(target)
	if err != nil {
		t.Fatalf("opening %s: %v", target, err)
	}
	t.Cleanup(func() { _ = src.Close() })
	return src
}

// pgSample reads src, failing the test on error.
func pgSample(t *testing.T, src Source) Sample {
	t.Helper()
	s, err := src.Sample(context.Background())
	if err != nil {
		t.Fatalf("sample: %v", err)
	}
	return s
}

// pgSettle reads src until no client is connected and two readings in a row agree, and returns
// the last. From PostgreSQL 15 on a session publishes its last counts as it exits, before it
// leaves pg_stat_activity, but a reading sees the counts and the sessions one after the other:
// the second of two agreeing readings with no client is sure to hold every closed session's
// counts (psql's of the set-up, a pool's that just closed), however late the server processed
// their goodbyes. The sessions the tests open themselves publish theirs before they close
// (pgCloseFlushed). The 30 s are a hang guard; settling takes a few readings.
func pgSettle(t *testing.T, src Source) Sample {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	prev := pgSample(t, src)
	for {
		time.Sleep(25 * time.Millisecond)
		s := pgSample(t, src)
		if s.Connections == 0 && prev.Connections == 0 && s.Queries == prev.Queries &&
			s.Deadlocks == prev.Deadlocks && s.TempBytes == prev.TempBytes {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s still %d clients connected or counters moving (queries %d then %d)",
				s.Connections, prev.Queries, s.Queries)
		}
		prev = s
	}
}

// pgConnect opens a client connection, closed when the test ends.
func pgConnect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// pgLoad runs work on a client connection of its own and closes it with pgCloseFlushed: the
// statements counted are work's and one more.
func pgLoad(t *testing.T, dsn string, work func(*pgx.Conn)) {
	t.Helper()
	c := pgConnect(t, dsn)
	work(c)
	pgCloseFlushed(t, c)
}

// pgCloseFlushed has the server publish the session's counts (one statement) and closes it, so
// that the next reading holds all it did: a session that just exits publishes its counts a
// moment after it leaves pg_stat_activity.
func pgCloseFlushed(t *testing.T, c *pgx.Conn) {
	t.Helper()
	pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "SELECT pg_stat_force_next_flush()")
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("closing a client connection: %v", err)
	}
}

// pgRun runs one statement, failing the test on error.
func pgRun(t *testing.T, c *pgx.Conn, mode pgx.QueryExecMode, sql string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Exec(ctx, sql, append([]any{mode}, args...)...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// pgTry runs one statement and returns its error.
func pgTry(c *pgx.Conn, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.Exec(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	return err
}

func pgDeref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
