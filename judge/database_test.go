package judge

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"
)

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

func withDatabases(transactions int64, s ...dbload.Summary) stats.Report {
	r := stats.Report{Transactions: transactions, Run: stats.RunInfo{Version: "test", HistogramUnit: "us", StartedAt: dbStart}}
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
			if err := stats.WriteJSON(&b, &r); err != nil {
				t.Fatal(err)
			}
			if tc.key != "" && !strings.Contains(b.String(), tc.key) {
				t.Errorf("no %s in\n%s", tc.key, b.String())
			}
			if strings.Contains(b.String(), tc.other) {
				t.Errorf("%s in\n%s", tc.other, b.String())
			}
			var back stats.Report
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
		rep    stats.Report
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
			f, ok := stats.LookupFigure(tc.figure)
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
		rep    *stats.Report
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
			v := checkOneGate(t, tc.rep, tc.expr)
			if v.Passed != tc.passed || !strings.Contains(v.Text, tc.text) {
				t.Errorf("%s: passed %v, %q; want %v, containing %q", tc.expr, v.Passed, v.Text, tc.passed, tc.text)
			}
		})
	}
	if _, err := gate.ParseGate("url:/x q/t<2"); err == nil {
		t.Error("a database figure took a url: selector")
	}
}

// A --repeat series adds its runs' database figures up and works out Q/T over all its
// transactions; merged shards take one shard's reading, which already counted every shard's
// statements, and work out Q/T over the merged transactions.
func TestDatabasesCombineAndMerge(t *testing.T) {
	t.Parallel()
	with := func(name string, q int64, samples int) stats.Report {
		r := loadSaved(t, name)
		s := mysqlSummary(q)
		s.Samples = samples
		r.SetDatabases([]dbload.Summary{s, postgresSummary(q / 10)})
		return r
	}
	a, b := with("closed", 1000, 3), with("closed", 3000, 3)
	series, err := stats.Combine([]stats.Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	dbs := series.DatabaseList()
	if len(dbs) != 2 || *dbs[0].Queries != 4000 || *dbs[1].Queries != 400 || dbs[0].Seconds != 20 {
		t.Fatalf("series databases %+v", dbs)
	}
	if want := 4000 / float64(series.Transactions); *dbs[0].QueriesPerTransaction != want {
		t.Errorf("series Q/T %v, want %v", *dbs[0].QueriesPerTransaction, want)
	}
	if len(series.Repeats) != 2 || *series.Repeats[1].Databases[0].Queries != 3000 {
		t.Errorf("the runs keep their own databases: %+v", series.Repeats[1].Databases)
	}

	s0, s1 := with("shard0", 1000, 3), with("shard1", 1100, 4)
	merged, err := stats.Merge([]stats.Report{s1, s0})
	if err != nil {
		t.Fatal(err)
	}
	dbs = merged.DatabaseList()
	if len(dbs) != 2 || *dbs[0].Queries != 1100 || *dbs[1].Queries != 100 {
		t.Fatalf("merged databases: queries %d and %d, want shard 1's 1100 and the first shard's 100", *dbs[0].Queries, *dbs[1].Queries)
	}
	if want := 1100 / float64(merged.Transactions); *dbs[0].QueriesPerTransaction != want || merged.Transactions == s1.Transactions {
		t.Errorf("merged Q/T %v, want %v over the merged %d transactions", *dbs[0].QueriesPerTransaction, want, merged.Transactions)
	}
	if !strings.HasPrefix(dbs[0].Note, "read by shard 1/2 alone") || !strings.HasPrefix(dbs[1].Note, "read by shard 0/2 alone") {
		t.Errorf("notes %q, %q", dbs[0].Note, dbs[1].Note)
	}
}

// series is a --repeat series of the saved closed run, whose runs' database ran qs statements.
func dbSeries(t *testing.T, label string, qs ...int64) stats.Report {
	t.Helper()
	var runs []stats.Report
	for _, q := range qs {
		r := loadSaved(t, "closed")
		r.Label = label
		r.SetDatabases([]dbload.Summary{mysqlSummary(q)})
		runs = append(runs, r)
	}
	if len(runs) == 1 {
		return runs[0]
	}
	s, err := stats.Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// compare shows QPS, Q/T and Slow after LA and MEM when a result compared measured them, judged
// as the other figures of a run are, and --max-regression takes q/t.
func TestCompareDatabaseColumns(t *testing.T) {
	t.Parallel()
	plain := loadSaved(t, "closed")
	for _, tc := range []struct {
		name     string
		reports  []stats.Report
		columns  bool
		cell     string // the candidate's Q/T cell
		limit    string // --max-regression q/t=10%'s verdict, as it starts
		passed   bool
		baseline string // the baseline's Q/T cell
	}{
		{"neither", []stats.Report{plain, plain}, false, "", "cand Q/T: not measured in closed and cand (needs --db), not judged", true, ""},
		{"baseline only", []stats.Report{dbSeries(t, "base", 1000), plain}, true, "-", "cand Q/T: not measured in cand (needs --db), not judged", true, ""},
		{"single runs", []stats.Report{dbSeries(t, "base", 1000), dbSeries(t, "cand", 3000)}, true, "+200.0%?",
			"cand Q/T 125.00 vs 41.67 (+200.0%, allowed 10.0% worse): FAILED (1 run, no noise estimate", false, "41.67"},
		{"series", []stats.Report{dbSeries(t, "base", 1000, 1010, 990), dbSeries(t, "cand", 2000, 2020, 1980)}, true, "+100.0%*",
			"cand Q/T 83.33 vs 41.67 (+100.0%, allowed 10.0% worse): FAILED (significant", false, "41.67"},
		{"series within the limit", []stats.Report{dbSeries(t, "base", 1000, 1010, 990), dbSeries(t, "cand", 1040, 1000, 1020)}, true, "+2.0%~",
			"cand Q/T 42.50 vs 41.67 (+2.0%, allowed 10.0% worse): ok", true, "41.67"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.reports[1].Label = "cand"
			c, err := Compare(tc.reports, false)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, col := range c.Columns {
				keys = append(keys, col.Key)
			}
			wantKeys := "etime rtime trate conc ok failed p50 p95 p99 la mem"
			if tc.columns {
				wantKeys += " qps q/t slow"
			}
			if got := strings.Join(keys, " "); got != wantKeys {
				t.Fatalf("columns %s, want %s", got, wantKeys)
			}
			var text bytes.Buffer
			if err := c.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(text.String(), "\n")
			if head := strings.Join(strings.Fields(lines[0]), " "); tc.columns != strings.HasSuffix(head, "MEM (MB) QPS (/s) Q/T Slow") {
				t.Errorf("header %q", lines[0])
			}
			if tc.columns {
				cells := c.table()
				qt := len(cells[0]) - 2
				if got := cells[2][qt]; !strings.HasSuffix(got, tc.cell) {
					t.Errorf("candidate's Q/T %q, want it to end %q", got, tc.cell)
				}
				if got := cells[1][qt]; tc.baseline != "" && got != tc.baseline {
					t.Errorf("baseline's Q/T %q, want %q", got, tc.baseline)
				}
			}
			limits, err := ParseLimits("q/t=10%")
			if err != nil {
				t.Fatal(err)
			}
			v := c.CheckLimits(limits)[0]
			if v.Passed != tc.passed || !strings.HasPrefix(v.Text, tc.limit) || v.Figure != "q/t" || v.Check != "cand: q/t" {
				t.Errorf("limit: %+v; want passed %v, text starting %q", v, tc.passed, tc.limit)
			}
		})
	}
}

// The trend follows the database's figures when a run measured them, a trend rule on q/t
// judges the newest run, and its verdict goes to JUnit like any other.
func TestTrendDatabaseRule(t *testing.T) {
	t.Parallel()
	var runs []stats.Report
	for _, q := range []int64{1000, 1010, 990, 1005, 2000} {
		runs = append(runs, dbSeries(t, "nightly", q))
	}
	tr, err := NewTrend(runs, 3)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range tr.Figures {
		keys = append(keys, f.Key)
	}
	if got := strings.Join(keys, " "); !strings.HasSuffix(got, "la mem qps q/t slow") {
		t.Errorf("trend figures %s", got)
	}
	limits, err := ParseLimits("q/t=10%,slow=10%")
	if err != nil {
		t.Fatal(err)
	}
	got := tr.CheckLimits(limits)
	if got[0].Passed || got[0].Figure != "q/t" || !strings.HasPrefix(got[0].Text, "newest Q/T 83.33 vs median 41.77 (+99.5%, allowed 10.0% worse): FAILED (significant") {
		t.Errorf("q/t: %+v", got[0])
	}
	if !got[1].Passed {
		t.Errorf("slow: %+v", got[1])
	}
	var text bytes.Buffer
	if err := tr.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\nQ/T ") {
		t.Errorf("no Q/T line in the trend:\n%s", text.String())
	}
	var b strings.Builder
	if err := WriteJUnit(&b, "webload history", got); err != nil {
		t.Fatal(err)
	}
	checkJUnit(t, []byte(b.String()), "webload history", []string{"newest: q/t", "newest: slow"}, got)
	// Without --db the trend keeps the table it had, and the rule is not checked.
	plain, err := NewTrend([]stats.Report{loadSaved(t, "closed"), loadSaved(t, "closed"), loadSaved(t, "closed")}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Figures) != len(columns) {
		t.Errorf("%d trend lines without --db, want %d", len(plain.Figures), len(columns))
	}
	if v := plain.CheckLimits(limits)[0]; !v.Passed || v.Text != "newest Q/T: not measured (needs --db), not judged" {
		t.Errorf("q/t without --db: %+v", v)
	}
}

// compare says when QPS and Q/T of the results came from different counters (statements on
// MySQL, transactions on PostgreSQL without pg_stat_statements), and then neither compares them
// nor lets a limit on them pass: Q/T of statements against Q/T of transactions once read "ok" on
// the headline migration. Results that count the same thing are compared as before.
func TestUnlikeQueriesNotCompared(t *testing.T) {
	t.Parallel()
	withDB := func(label string, s dbload.Summary) stats.Report {
		r := loadSaved(t, "closed")
		r.Label = label
		r.SetDatabases([]dbload.Summary{s})
		return r
	}
	statements := postgresSummary(900)
	statements.QueriesSource = "pg_stat_statements.calls"
	for _, tc := range []struct {
		name    string
		cand    dbload.Summary
		note    string // the note, "" for none
		verdict string // the candidate's Q/T verdict
		limit   string // the q/t limit's verdict text, after the label
	}{
		{"same counter", mysqlSummary(1100), "", NoEstimate, "FAILED (1 run"},
		{"statements against statements", statements, "", NoEstimate, ": ok"},
		{"transactions against statements", postgresSummary(900),
			"QPS and Q/T count different things, so they are not compared (marked unlike) and a limit on them is inconclusive: " +
				"mariadb counts statements (Questions), pg counts transactions (xact_commit+xact_rollback); " +
				"load pg_stat_statements on PostgreSQL to count its statements as MySQL and MariaDB do",
			Unlike, "pg Q/T: Q/T counts transactions (xact_commit+xact_rollback) in pg and statements (Questions) in mariadb: INCONCLUSIVE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := Compare([]stats.Report{withDB("mariadb", mysqlSummary(1000)), withDB("pg", tc.cand)}, false)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, n := range c.Notes {
				if strings.HasPrefix(n, "QPS and Q/T") {
					got = n
				}
			}
			if got != tc.note {
				t.Errorf("note %q\nwant %q", got, tc.note)
			}
			for _, key := range []string{"qps", "q/t"} {
				cell := c.Rows[1].Cells[c.columnIndex(key)]
				if cell.Verdict != tc.verdict || (tc.verdict == Unlike) != (cell.Change == nil) {
					t.Errorf("%s: verdict %q, change %v; want %q", key, cell.Verdict, cell.Change, tc.verdict)
				}
			}
			v := c.CheckLimits([]Limit{{Key: "q/t", Max: 0.1}})
			if len(v) != 1 || !strings.Contains(v[0].Text, tc.limit) || v[0].Inconclusive != (tc.verdict == Unlike) {
				t.Errorf("limit verdicts %+v, want one with %q", v, tc.limit)
			}
			row := strings.Join(c.table()[2], " ")
			if want := tc.verdict == Unlike; strings.Count(row, "(unlike)") != map[bool]int{true: 2}[want] {
				t.Errorf("the candidate's row marks unlike cells wrongly: %s", row)
			}
		})
	}
}

// checkOneGate parses expr and checks rep against it.
func checkOneGate(t *testing.T, rep *stats.Report, expr string) stats.Verdict {
	t.Helper()
	g, err := gate.ParseGate(expr)
	if err != nil {
		t.Fatal(err)
	}
	return gate.CheckGates(rep, []gate.Gate{g})[0]
}
