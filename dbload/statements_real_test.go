package dbload

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/internal/testtier"
)

// stmtWorkload is what the tests run between the readings: A n times, B m times.
const (
	stmtA, stmtN = "SELECT id FROM stmt_items WHERE id = %s", 23
	stmtB, stmtM = "SELECT count(*) FROM stmt_items WHERE id > %s", 7
)

// findStatement is the statement of list whose normalised text is want's.
func findStatement(list []Statement, want string) *Statement {
	for i := range list {
		if NormalizeStatement(list[i].Text) == NormalizeStatement(want) {
			return &list[i]
		}
	}
	return nil
}

// wantWorkload checks that the run's statements are the workload's, exactly, and nothing of
// the reader's.
func wantWorkload(t *testing.T, st *Statements, source, placeholder string) {
	t.Helper()
	if st == nil || st.Unavailable != "" {
		t.Fatalf("statements %+v", st)
	}
	if st.Source != source {
		t.Errorf("source %q, want %q", st.Source, source)
	}
	for _, w := range []struct {
		text  string
		calls int64
	}{{stmtA, stmtN}, {stmtB, stmtM}} {
		text := strings.ReplaceAll(w.text, "%s", placeholder)
		s := findStatement(st.List, text)
		if s == nil {
			t.Errorf("no %q among %+v", text, st.List)
			continue
		}
		if s.Calls != w.calls || s.Total <= 0 || s.ID == "" || s.Masked {
			t.Errorf("%q: %+v, want %d calls", text, s, w.calls)
		}
	}
	if st.Calls != stmtN+stmtM || len(st.List) != 2 || st.Other.Calls != 0 {
		t.Errorf("%d calls in %d statements (%+v), other %+v: want only the workload's %d", st.Calls, len(st.List), st.List, st.Other, stmtN+stmtM)
	}
}

// The statements read from a real MariaDB (performance_schema on) and PostgreSQL
// (pg_stat_statements) before and after a known workload are exactly the workload's, the
// readers' own left out, and the queries count stays exact beside them; with the source off,
// the summary says what is missing and how to turn it on, and the counters are still read.
func TestStatementsReal(t *testing.T) {
	testtier.Slow(t)
	ctx := context.Background()
	opts := Options{Statements: true, Top: 10}

	t.Run("mariadb", func(t *testing.T) {
		s := dbtest.MariaDBWith(t, dbtest.MariaDBOptions{PerformanceSchema: true})
		s.Exec(t, "USE webload; CREATE TABLE webload.stmt_items (id INT PRIMARY KEY); INSERT INTO webload.stmt_items SELECT seq FROM seq_1_to_50")
		db := siteDB(t, s.DSN)
		c := conn(t, db)
		src := openReader(t, s.DSN)
		waitAtRest(t, src, db, 0)
		m := StartWith(ctx, src, "mariadb", 0, opts)
		if err := m.StatementsError(); err != nil {
			t.Fatal(err)
		}
		for range stmtN {
			exec(t, c, strings.ReplaceAll(stmtA, "%s", "3"))
		}
		for range stmtM {
			exec(t, c, strings.ReplaceAll(stmtB, "%s", "10"))
		}
		sum := m.Stop()
		wantWorkload(t, sum.Statements, StatementsMySQL, "?")
		if sum.Queries == nil || *sum.Queries != stmtN+stmtM {
			t.Errorf("queries %v, want %d", pgDeref(sum.Queries), stmtN+stmtM)
		}
	})

	t.Run("mariadb, performance_schema off", func(t *testing.T) {
		s := dbtest.MariaDB(t)
		m := StartWith(ctx, openReader(t, s.DSN), "mariadb", 0, opts)
		if err := m.StatementsError(); !errors.Is(err, ErrNoStatements) || !strings.Contains(err.Error(), "performance_schema=ON") {
			t.Errorf("error %v, want it to say performance_schema=ON", err)
		}
		sum := m.Stop()
		if sum.Statements == nil || !strings.Contains(sum.Statements.Unavailable, "performance_schema is off") || sum.Queries == nil {
			t.Errorf("summary %+v, statements %+v", sum, sum.Statements)
		}
	})

	t.Run("postgres", func(t *testing.T) {
		s := pgServer(t, true)
		pgLoad(t, s.DSN, func(c *pgx.Conn) {
			pgRun(t, c, pgx.QueryExecModeSimpleProtocol, "CREATE TABLE stmt_items AS SELECT g AS id FROM generate_series(1, 50) g")
		})
		src := openPostgres(t, s.DSN)
		pgSettle(t, src)
		c := pgConnect(t, s.DSN)
		m := StartWith(ctx, src, "postgres", 0, opts)
		if err := m.StatementsError(); err != nil {
			t.Fatal(err)
		}
		for i := range stmtN {
			pgRun(t, c, pgx.QueryExecModeCacheStatement, strings.ReplaceAll(stmtA, "%s", "$1"), i)
		}
		for i := range stmtM {
			// Literals, which PostgreSQL takes out: one statement whatever the value.
			pgRun(t, c, pgx.QueryExecModeSimpleProtocol, strings.ReplaceAll(stmtB, "%s", strconv.Itoa(i)))
		}
		sum := m.Stop()
		wantWorkload(t, sum.Statements, StatementsPg, "$1")
		if sum.Queries == nil || *sum.Queries != stmtN+stmtM {
			t.Errorf("queries %v, want %d", pgDeref(sum.Queries), stmtN+stmtM)
		}
		if a := findStatement(sum.Statements.List, stmtA); a != nil && (a.SharedBlocksHit == nil || *a.SharedBlocksHit < stmtN) {
			t.Errorf("A's shared blocks hit %v, want at least one per call", pgDeref(a.SharedBlocksHit))
		}
	})

	t.Run("postgres without pg_stat_statements", func(t *testing.T) {
		s := pgServer(t, false)
		m := StartWith(ctx, openPostgres(t, s.DSN), "postgres", 0, opts)
		if err := m.StatementsError(); !errors.Is(err, ErrNoStatements) || !strings.Contains(err.Error(), "shared_preload_libraries") {
			t.Errorf("error %v, want it to say shared_preload_libraries", err)
		}
		sum := m.Stop()
		if sum.Statements == nil || sum.Statements.Unavailable == "" || sum.Queries == nil {
			t.Errorf("summary %+v, statements %+v", sum, sum.Statements)
		}
	})
}
