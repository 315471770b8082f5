package stats

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
)

func i64p(v int64) *int64 { return &v }

func f64p(v float64) *float64 { return &v }

var dbStart = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

// mysqlSummary is a MariaDB's reading of a 10 s run in which it ran q statements.
func mysqlSummary(q int64) dbload.Summary {
	return dbload.Summary{
		Source: "mysql://webload:xxxxx@127.0.0.1:3306/", Kind: dbload.KindMySQL, Version: "10.11.6-MariaDB-0+deb12u1",
		Samples: 3, Seconds: 10, Queries: i64p(q), QueriesSource: "Questions", QueriesPerSec: float64(q) / 10,
		SlowQueries: i64p(2), RowsRead: i64p(q * 5), ConnectionsMax: 9, BufferHitRatio: f64p(99.5),
		LockWaits: i64p(1), Deadlocks: i64p(0), TempDiskTables: i64p(4),
		Series: []dbload.Point{
			{At: dbStart.Add(5 * time.Second), Seconds: 5, QueriesPerSec: float64(q) / 10, SlowQueries: i64p(1), Connections: 9},
			{At: dbStart.Add(10 * time.Second), Seconds: 5, QueriesPerSec: float64(q) / 10, SlowQueries: i64p(1), Connections: 8},
		},
	}
}

// postgresSummary is a PostgreSQL's reading without pg_stat_statements' slow calls.
func postgresSummary(q int64) dbload.Summary {
	return dbload.Summary{
		Source: "postgres://webload:xxxxx@127.0.0.1:5432/webload?sslmode=disable", Kind: dbload.KindPostgres,
		Version: "15.5 (Debian 15.5-0+deb12u1)", Samples: 3, Seconds: 10, Queries: i64p(q),
		QueriesSource: "xact_commit+xact_rollback", QueriesPerSec: float64(q) / 10, RowsRead: i64p(q * 2),
		ConnectionsMax: 4, BufferHitRatio: f64p(90), LockWaits: i64p(2), LockWaitsPeak: true, Deadlocks: i64p(1),
		TempBytes: i64p(3 << 20),
	}
}

func withDatabases(transactions int64, s ...dbload.Summary) Report {
	r := Report{Transactions: transactions, Run: RunInfo{Version: "test", HistogramUnit: "us", StartedAt: dbStart}}
	r.SetDatabases(s)
	return r
}

// One database is the JSON's "database", several its "databases" in the order given, none
// neither; both forms read back as they were written.
func TestDatabasesJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		dbs        []dbload.Summary
		key, other string
	}{
		{"none", nil, "", `"database`},
		{"one", []dbload.Summary{mysqlSummary(1000)}, `"database": {`, `"databases"`},
		{"two", []dbload.Summary{mysqlSummary(1000), postgresSummary(300)}, `"databases": [`, `"database":`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := withDatabases(100, tc.dbs...)
			var b bytes.Buffer
			if err := WriteJSON(&b, &r); err != nil {
				t.Fatal(err)
			}
			if tc.key != "" && !strings.Contains(b.String(), tc.key) {
				t.Errorf("no %s in\n%s", tc.key, b.String())
			}
			if strings.Contains(b.String(), tc.other) {
				t.Errorf("%s in\n%s", tc.other, b.String())
			}
			var back Report
			if err := json.Unmarshal(b.Bytes(), &back); err != nil {
				t.Fatal(err)
			}
			got := back.DatabaseList()
			if len(got) != len(tc.dbs) {
				t.Fatalf("read back %d databases, want %d", len(got), len(tc.dbs))
			}
			for i := range got {
				if got[i].Source != tc.dbs[i].Source || *got[i].Queries != *tc.dbs[i].Queries {
					t.Errorf("database %d read back as %+v", i, got[i])
				}
			}
		})
	}
}

// SetDatabases sets the per-transaction figures from the run's transactions.
func TestSetDatabasesPerTransaction(t *testing.T) {
	t.Parallel()
	r := withDatabases(200, mysqlSummary(1000))
	d := r.DatabaseList()[0]
	if d.QueriesPerTransaction == nil || *d.QueriesPerTransaction != 5 || *d.RowsReadPerTransaction != 25 {
		t.Errorf("per transaction: queries %v, rows %v; want 5, 25", d.QueriesPerTransaction, d.RowsReadPerTransaction)
	}
	none := withDatabases(0, mysqlSummary(1000))
	if none.DatabaseList()[0].QueriesPerTransaction != nil {
		t.Error("queries per transaction set for a run without transactions")
	}
}

// The database figures of a run, over all its databases: counts summed, ratios recomputed, and
// a figure some database did not measure is not measured.
func TestDatabaseFigures(t *testing.T) {
	t.Parallel()
	two := withDatabases(100, mysqlSummary(1000), postgresSummary(300))
	for _, tc := range []struct {
		name   string
		rep    Report
		figure string
		want   float64 // NaN: not measured
	}{
		{"qps", withDatabases(100, mysqlSummary(1000)), "qps", 100},
		{"q/t", withDatabases(100, mysqlSummary(1000)), "q/t", 10},
		{"q/t alias", withDatabases(100, mysqlSummary(1000)), "queries_per_transaction", 10},
		{"qt alias", withDatabases(100, mysqlSummary(1000)), "qt", 10},
		{"slow", withDatabases(100, mysqlSummary(1000)), "slow_queries", 2},
		{"rows/t", withDatabases(100, mysqlSummary(1000)), "rows/t", 50},
		{"hit ratio", withDatabases(100, mysqlSummary(1000)), "buffer_hit_ratio", 99.5},
		{"deadlocks", withDatabases(100, mysqlSummary(1000)), "deadlocks", 0},
		{"two qps", two, "qps", 130},
		{"two q/t", two, "q/t", 13},
		{"two rows/t", two, "rows/t", 56},
		{"two hit ratio weighted by queries", two, "buffer_hit_ratio", (1000*99.5 + 300*90) / 1300},
		{"two deadlocks", two, "deadlocks", 1},
		{"two slow: postgres did not measure", two, "slow", math.NaN()},
		{"no database", withDatabases(100), "q/t", math.NaN()},
		{"no transactions", withDatabases(0, mysqlSummary(1000)), "q/t", math.NaN()},
		{"counters reset", withDatabases(100, dbload.Summary{Kind: "mysql", Samples: 3, CountersReset: true}), "qps", math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, ok := LookupFigure(tc.figure)
			if !ok {
				t.Fatalf("no figure %q", tc.figure)
			}
			v, ok := f.Run(&tc.rep)
			switch {
			case math.IsNaN(tc.want) && ok:
				t.Errorf("%s = %v, want not measured", tc.figure, v)
			case !math.IsNaN(tc.want) && (!ok || math.Abs(v-tc.want) > 1e-9):
				t.Errorf("%s = %v (measured %v), want %v", tc.figure, v, ok, tc.want)
			}
		})
	}
}

// A gate on a database figure of a run without --db fails saying it was not measured, as la
// and mem do without --server-metrics; with a database it holds or fails on the figure.
func TestDatabaseGates(t *testing.T) {
	t.Parallel()
	with := withDatabases(100, mysqlSummary(1000))
	without := withDatabases(100)
	for _, tc := range []struct {
		expr   string
		rep    *Report
		passed bool
		text   string
	}{
		{"q/t<20", &with, true, "q/t = 10.00, allowed < 20: ok"},
		{"q/t < 5", &with, false, "q/t = 10.00, allowed < 5: FAILED"},
		{"qps<=100", &with, true, "qps = 100.00 queries/sec, allowed <= 100 queries/sec: ok"},
		{"slow==0", &with, false, "slow = 2, allowed == 0: FAILED"},
		{"buffer_hit_ratio>=99%", &with, true, "buffer_hit_ratio = 99.500 %, allowed >= 99 %: ok"},
		{"q/t<20", &without, false, "q/t<20: q/t was not measured in this run: FAILED"},
		{"la<2", &without, false, "la<2: la was not measured in this run: FAILED"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			g, err := ParseGate(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			v := CheckGates(tc.rep, []Gate{g})[0]
			if v.Passed != tc.passed || !strings.Contains(v.Text, tc.text) {
				t.Errorf("%s: passed %v, %q; want %v, containing %q", tc.expr, v.Passed, v.Text, tc.passed, tc.text)
			}
		})
	}
	if _, err := ParseGate("url:/x q/t<2"); err == nil {
		t.Error("a database figure took a url: selector")
	}
}
