package dbload

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/webload/webload/internal/dbtest"
)

// The reader against real PostgreSQL servers, one with pg_stat_statements and one without. The
// subtests share the servers and run in order, since each counts what the server did.
func TestPostgresReader(t *testing.T) {
	calls := pgServer(t, true)
	xacts := pgServer(t, false)

	t.Run("queries are the statements sent, the source's own left out", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			s      *dbtest.Server
			mode   pgx.QueryExecMode
			source string
			// extra is what the counter adds to the statements sent.
			extra int64
		}{
			{"pg_stat_statements, simple protocol", calls, pgx.QueryExecModeSimpleProtocol, pgSourceCalls, 0},
			{"pg_stat_statements, prepared", calls, pgx.QueryExecModeCacheStatement, pgSourceCalls, 0},
			{"transactions, simple protocol", xacts, pgx.QueryExecModeSimpleProtocol, pgSourceStmXacts, 0},
			// The statement is prepared once, on a round trip that is a transaction of its own.
			{"transactions, prepared", xacts, pgx.QueryExecModeCacheStatement, pgSourceStmXacts, 1},
		} {
			t.Run(tc.name, func(t *testing.T) {
				src := openPostgres(t, tc.s.DSN)
				before := pgSettle(t, src)
				const n = 37
				pgLoad(t, tc.s.DSN, func(c *pgx.Conn) {
					for i := range n - 1 { // and pgLoad's last
						pgRun(t, c, tc.mode, "SELECT $1::int", i)
					}
				})
				after := pgSettle(t, src)
				if got := after.Queries - before.Queries; got != n+tc.extra {
					t.Errorf("queries: %d, want %d", got, n+tc.extra)
				}
				if after.QueriesSource != tc.source || after.Kind != KindPostgres {
					t.Errorf("source %q kind %q, want %q %q", after.QueriesSource, after.Kind, tc.source, KindPostgres)
				}
			})
		}
	})

	t.Run("a reading after a lost connection reconnects, the count still exact", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			s    *dbtest.Server
		}{{"pg_stat_statements", calls}, {"transactions", xacts}} {
			t.Run(tc.name, func(t *testing.T) {
				src := openPostgres(t, tc.s.DSN)
				before := pgSettle(t, src)
				pgLoad(t, tc.s.DSN, func(c *pgx.Conn) {
					pgRun(t, c, pgx.QueryExecModeSimpleProtocol,
						"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'webload'")
				})
				if _, err := src.Sample(context.Background()); err == nil {
					t.Fatal("reading over the terminated connection succeeded")
				}
				after := pgSettle(t, src)
				if got := after.Queries - before.Queries; got != 2 {
					t.Errorf("queries: %d, want the load's 2", got)
				}
			})
		}
	})

	t.Run("a scan reads rows and buffers", func(t *testing.T) {
		pgLoad(t, calls.DSN, func(c *pgx.Conn) {
			pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "CREATE TABLE scan AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 20000) g")
		})
		pages, _ := strconv.ParseInt(calls.Exec(t, "SELECT pg_relation_size('scan') / current_setting('block_size')::int"), 10, 64)
		src := openPostgres(t, calls.DSN)
		before := pgSettle(t, src)
		pgLoad(t, calls.DSN, func(c *pgx.Conn) { pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "SELECT count(*) FROM scan") })
		after := pgSettle(t, src)
		rows, reads, misses := after.RowsRead-before.RowsRead, after.BufferReads-before.BufferReads, after.BufferMisses-before.BufferMisses
		// Exactly the table's rows: the catalog rows that the readings and the client's
		// connection read are not the site's.
		if rows != 20000 {
			t.Errorf("rows read: %d, want the table's 20000", rows)
		}
		if reads < pages || misses < 0 || misses > reads {
			t.Errorf("buffer reads %d, misses %d; want at least the table's %d pages, misses within reads", reads, misses, pages)
		}
		if want := HasRowsRead | HasBuffer; after.Has&want != want {
			t.Errorf("has %b, want %b", after.Has, want)
		}
	})

	// The rows read are the user tables' of the database the DSN names: one without tables
	// (not the site's) leaves them unmeasured rather than reading 0.
	t.Run("a database without tables measures no rows", func(t *testing.T) {
		calls.Exec(t, "CREATE DATABASE notables")
		u, err := url.Parse(calls.DSN)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/notables"
		s := pgSample(t, openPostgres(t, u.String()))
		if s.Has&HasRowsRead != 0 || s.Has&HasBuffer == 0 {
			t.Errorf("has %b: want the buffers without the rows read", s.Has)
		}
	})

	t.Run("a sort bigger than work_mem writes temporary bytes", func(t *testing.T) {
		src := openPostgres(t, calls.DSN)
		before := pgSettle(t, src)
		pgLoad(t, calls.DSN, func(c *pgx.Conn) {
			pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "SET work_mem = '64kB'")
			pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "SELECT count(*) FROM (SELECT g FROM generate_series(1, 200000) g ORDER BY g DESC) s")
		})
		after := pgSettle(t, src)
		if after.TempBytes <= before.TempBytes || after.Has&HasTempBytes == 0 {
			t.Errorf("temp bytes: %d then %d, want more", before.TempBytes, after.TempBytes)
		}
	})

	pgLoad(t, calls.DSN, func(c *pgx.Conn) {
		pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "CREATE TABLE locked (id int PRIMARY KEY, v int)")
		pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "INSERT INTO locked VALUES (1, 0), (2, 0)")
	})

	t.Run("a deadlock is counted once", func(t *testing.T) {
		src := openPostgres(t, calls.DSN)
		before := pgSettle(t, src)
		a, b := pgConnect(t, calls.DSN), pgConnect(t, calls.DSN)
		for _, c := range []struct {
			conn *pgx.Conn
			id   int
		}{{a, 1}, {b, 2}} {
			pgRun(t, c.conn, pgx.QueryExecModeSimpleProtocol, "BEGIN")
			pgRun(t, c.conn, pgx.QueryExecModeSimpleProtocol, "UPDATE locked SET v = v + 1 WHERE id = $1", c.id)
		}
		// Each now wants the other's row; PostgreSQL ends one after deadlock_timeout.
		errA := make(chan error, 1)
		go func() { errA <- pgTry(a, "UPDATE locked SET v = v + 1 WHERE id = 2") }()
		errB := pgTry(b, "UPDATE locked SET v = v + 1 WHERE id = 1")
		errs := []error{<-errA, errB}
		victims := 0
		for _, err := range errs {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "40P01" {
				victims++
			} else if err != nil {
				t.Fatalf("update: %v", err)
			}
		}
		if victims != 1 {
			t.Fatalf("deadlock victims: %d (%v), want 1", victims, errs)
		}
		for _, c := range []*pgx.Conn{a, b} {
			pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "ROLLBACK")
			pgCloseFlushed(t, c)
		}
		after := pgSettle(t, src)
		if got := after.Deadlocks - before.Deadlocks; got != 1 || after.Has&HasDeadlocks == 0 {
			t.Errorf("deadlocks: %d, want 1", got)
		}
	})

	t.Run("a session waiting for a row lock shows at the reading", func(t *testing.T) {
		src := openPostgres(t, calls.DSN)
		holder, waiter := pgConnect(t, calls.DSN), pgConnect(t, calls.DSN)
		pgRun(t, holder, pgx.QueryExecModeSimpleProtocol, "BEGIN")
		pgRun(t, holder, pgx.QueryExecModeSimpleProtocol, "SELECT v FROM locked WHERE id = 1 FOR UPDATE")
		waited := make(chan error, 1)
		go func() { waited <- pgTry(waiter, "UPDATE locked SET v = 0 WHERE id = 1") }()
		var seen Sample
		for range 400 {
			seen = pgSample(t, src)
			if seen.LockWaits > 0 {
				break
			}
			time.Sleep(25 * time.Millisecond)
		}
		pgRun(t, holder, pgx.QueryExecModeSimpleProtocol, "ROLLBACK")
		if err := <-waited; err != nil {
			t.Fatalf("waiting update: %v", err)
		}
		if seen.LockWaits != 1 || seen.Has&HasLockWaitsNow == 0 {
			t.Errorf("lock waits while one session waits: %d (has %b), want 1 as a gauge", seen.LockWaits, seen.Has)
		}
		if now := pgSample(t, src); now.LockWaits != 0 {
			t.Errorf("lock waits once released: %d, want 0", now.LockWaits)
		}
	})

	t.Run("connections are the clients', not the source's", func(t *testing.T) {
		src := openPostgres(t, calls.DSN)
		pgSettle(t, src)
		for range 3 {
			pgConnect(t, calls.DSN)
		}
		if got := pgSample(t, src).Connections; got != 3 {
			t.Errorf("connections: %d, want the 3 clients", got)
		}
	})

	t.Run("an account without privileges, in read-only transactions, reads the same", func(t *testing.T) {
		calls.Exec(t, "CREATE ROLE watcher LOGIN PASSWORD 'watcher-pw'")
		calls.Exec(t, "ALTER ROLE watcher SET default_transaction_read_only = on")
		src := openPostgres(t, strings.Replace(calls.DSN, dbtest.User+":"+dbtest.Password, "watcher:watcher-pw", 1))
		before := pgSettle(t, src)
		const n = 11
		pgLoad(t, calls.DSN, func(c *pgx.Conn) {
			for range n - 1 { // and pgLoad's last
				pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "SELECT 1")
			}
			if got := pgSample(t, src).Connections; got != 1 {
				t.Errorf("connections: %d, want the one client", got)
			}
		})
		after := pgSettle(t, src)
		if got := after.Queries - before.Queries; got != n || after.QueriesSource != pgSourceCalls {
			t.Errorf("queries: %d from %q, want %d from %q", got, after.QueriesSource, n, pgSourceCalls)
		}
	})

	t.Run("a source keeps the counter it started with", func(t *testing.T) {
		// Queries from one counter, then another, would make a difference that means nothing.
		withStatements := openPostgres(t, calls.DSN)
		pgSample(t, withStatements)
		calls.Exec(t, "DROP EXTENSION pg_stat_statements")
		for range 2 { // the reading over the connection, then a new connection's
			if _, err := withStatements.Sample(context.Background()); err == nil {
				t.Fatal("reading without pg_stat_statements succeeded")
			}
		}
		withoutStatements := openPostgres(t, calls.DSN)
		pgSample(t, withoutStatements)
		calls.Exec(t, "CREATE EXTENSION pg_stat_statements")
		pgLoad(t, calls.DSN, func(c *pgx.Conn) {
			pgRun(t, c, pgx.QueryExecModeSimpleProtocol,
				"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'webload'")
		})
		for _, tc := range []struct {
			name string
			src  Source
			want string
		}{{"started with pg_stat_statements", withStatements, pgSourceCalls}, {"started without", withoutStatements, pgSourceStmXacts}} {
			_, _ = tc.src.Sample(context.Background()) // over the terminated connection
			if s := pgSample(t, tc.src); s.QueriesSource != tc.want {
				t.Errorf("%s: queries from %q, want %q", tc.name, s.QueriesSource, tc.want)
			}
		}
	})

	t.Run("a monitor sums up a run", func(t *testing.T) {
		src := openPostgres(t, calls.DSN)
		pgSettle(t, src)
		target, _ := ParseTarget(calls.DSN)
		m := Start(context.Background(), src, target.String(), 20*time.Millisecond)
		const n = 25
		pgLoad(t, calls.DSN, func(c *pgx.Conn) {
			for range n - 1 { // and pgLoad's last
				pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "SELECT count(*) FROM locked")
			}
		})
		// pg_stat_statements counts a statement as it ends: the count needs no settling.
		sum := m.Stop()
		if sum.Kind != KindPostgres || !regexp.MustCompile(`^\d+\.\d+`).MatchString(sum.Version) {
			t.Errorf("kind %q version %q", sum.Kind, sum.Version)
		}
		if sum.Queries == nil || *sum.Queries != n || sum.QueriesSource != pgSourceCalls {
			t.Errorf("queries %v from %q, want %d from %q", pgDeref(sum.Queries), sum.QueriesSource, n, pgSourceCalls)
		}
		if sum.Failures != 0 || sum.Samples < 2 || len(sum.Series) != sum.Samples-1 {
			t.Errorf("samples %d, failures %d (%s), series %d", sum.Samples, sum.Failures, sum.FirstError, len(sum.Series))
		}
		// The rows read reach the counters when the session publishes them, which the last
		// reading may precede: their count is tested settled, above.
		if sum.RowsRead == nil || sum.BufferHitRatio == nil || sum.Deadlocks == nil ||
			sum.TempBytes == nil || sum.LockWaits == nil || !sum.LockWaitsPeak {
			t.Errorf("figures missing: %+v", sum)
		}
		if sum.SlowQueries != nil || sum.TempDiskTables != nil {
			t.Errorf("figures PostgreSQL does not measure are present: %+v", sum)
		}
	})

	// Last, as one case stops a server.
	t.Run("a database that cannot be read fails readings, never showing the password", func(t *testing.T) {
		const closed = "127.0.0.1:1" // a port below 1024 that nothing serves here
		for _, tc := range []struct {
			name   string
			dsn    string
			before func(t *testing.T, src Source)
		}{
			{"wrong password", strings.Replace(calls.DSN, dbtest.Password, "wrong-"+dbtest.Password, 1), nil},
			{"closed port", fmt.Sprintf("postgres://%s:%s@%s/%s?sslmode=disable", dbtest.User, dbtest.Password, closed, dbtest.Database), nil},
			{"server stopped", xacts.DSN, func(t *testing.T, src Source) {
				pgSample(t, src)
				xacts.Stop()
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				src := openPostgres(t, tc.dsn)
				if tc.before != nil {
					tc.before(t, src)
				}
				_, err := src.Sample(context.Background())
				if err == nil {
					t.Fatal("reading succeeded")
				}
				if msg := err.Error(); strings.Contains(msg, dbtest.Password) || !strings.Contains(msg, "postgres") {
					t.Errorf("error %q: want it to name postgres and hide the password", msg)
				}
				target, _ := ParseTarget(tc.dsn)
				sum := Start(context.Background(), src, target.String(), 0).Stop()
				if sum.Samples != 0 || sum.Failures != 2 || sum.Queries != nil || sum.FirstError == "" {
					t.Errorf("summary %+v: want two failures and no figures", sum)
				}
				if strings.Contains(sum.FirstError+sum.Source, dbtest.Password) {
					t.Errorf("summary shows the password: %q %q", sum.Source, sum.FirstError)
				}
			})
		}
	})
}

// BenchmarkPostgresSample measures one reading against a real server, and what the reading
// itself adds to the figures it cannot tell apart from the site's.
func BenchmarkPostgresSample(b *testing.B) {
	s := dbtest.Postgres(b, dbtest.PostgresOptions{StatStatements: true})
	src := openReader(b, s.DSN)
	ctx := context.Background()
	first, err := src.Sample(ctx) // connects, and warms the session's catalogue cache
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var last Sample
	for b.Loop() {
		if last, err = src.Sample(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(last.RowsRead-first.RowsRead)/n, "rows/reading")
	b.ReportMetric(float64(last.BufferReads-first.BufferReads)/n, "buffer-reads/reading")
	b.ReportMetric(float64(last.Queries-first.Queries), "own-queries-left")
}
