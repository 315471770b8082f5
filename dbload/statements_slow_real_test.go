package dbload

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/internal/testtier"
)

// A statement that sleeps 0.2 s on some calls and 1 ms on others is one statement to the
// database, which keeps its total, fastest and slowest times, not each call's: on real MariaDB
// and PostgreSQL its slow calls are bounded, at least one (its slowest rose during the run)
// and at most its calls, not exact, its slowest call 200 ms at least. In a second run that
// only sleeps 1 ms, its slowest call is the first run's, marked as maybe older, and its total
// is too small for any slow call: exactly none.
func TestSlowStatementsBoundedReal(t *testing.T) {
	testtier.Slow(t)
	const slowN, fastN = 3, 3
	const limit, sleep = 150 * time.Millisecond, 200 * time.Millisecond
	opts := Options{Statements: true, Top: 10, Slow: limit}
	// check runs the workload; open is the reader of each run (Stop closes it). MariaDB's
	// performance_schema may count a call a moment after the client saw it end, so that a
	// reading right after the run misses it (see docs/database.md): there each run's last call
	// may be missing, which changes nothing of what is checked.
	check := func(t *testing.T, open func() Source, text string, mayMiss bool, run func(secs float64)) {
		t.Helper()
		m := StartWith(context.Background(), open(), "db", 0, opts)
		if err := m.StatementsError(); err != nil {
			t.Fatal(err)
		}
		for range slowN {
			run(0.2)
		}
		for range fastN {
			run(0.001)
		}
		first := m.Stop().Statements
		s := findStatement(first.List, text)
		if s == nil || s.Calls != slowN+fastN && !(mayMiss && s.Calls == slowN+fastN-1) || s.SlowCalls < 1 || s.SlowCalls > slowN+fastN || s.SlowExact ||
			s.Max == nil || *s.Max < sleep || s.MaxFromBefore {
			t.Fatalf("first run: %+v, want 1 to %d slow calls, a lower bound, the slowest the run's and %v at least", s, slowN+fastN, sleep)
		}
		m = StartWith(context.Background(), open(), "db", 0, opts)
		run(0.001)
		run(0.001)
		s = findStatement(m.Stop().Statements.List, text)
		if s == nil || s.Calls != 2 && !(mayMiss && s.Calls == 1) || s.SlowCalls != 0 || !s.SlowExact || s.Max == nil || *s.Max < sleep || !s.MaxFromBefore {
			t.Errorf("second run: %+v, want no slow call, exactly, and the first run's slowest marked as maybe older", s)
		}
	}

	t.Run("mariadb", func(t *testing.T) {
		s := dbtest.MariaDBWith(t, dbtest.MariaDBOptions{PerformanceSchema: true})
		c := conn(t, siteDB(t, s.DSN))
		check(t, func() Source { return openReader(t, s.DSN) }, "SELECT SLEEP(?)", true, func(secs float64) {
			// A literal, which the digest takes out: one statement whatever the time.
			exec(t, c, fmt.Sprintf("SELECT SLEEP(%g)", secs))
		})
	})
	t.Run("postgres", func(t *testing.T) {
		s := pgServer(t, true)
		c := pgConnect(t, s.DSN)
		check(t, func() Source { return openPostgres(t, s.DSN) }, "SELECT pg_sleep($1)", false, func(secs float64) {
			pgRun(t, c, pgx.QueryExecModeCacheStatement, "SELECT pg_sleep($1)", secs)
		})
	})
}
