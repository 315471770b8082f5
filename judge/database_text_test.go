package judge_test

import (
	"strings"
	"testing"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/report"
	"github.com/webload/webload/stats"
)

// The text report's Database block shows every figure measured, with its unit, and no other.
func TestDatabaseText(t *testing.T) {
	t.Parallel()
	failing := judge.PostgresSummary(300)
	failing.Failures, failing.FirstError = 2, "reading postgres: dial tcp 127.0.0.1:5432: connection refused"
	dead := dbload.Summary{Source: "mysql://root:xxxxx@127.0.0.1:1/", Failures: 3,
		FirstError: "reading mysql: dial tcp 127.0.0.1:1: connection refused"}
	reset := judge.MysqlSummary(10)
	reset.Queries, reset.QueriesPerSec, reset.SlowQueries, reset.CountersReset = nil, 0, nil, true
	for _, tc := range []struct {
		name       string
		rep        stats.Report
		want, omit []string
	}{
		{"mysql", judge.WithDatabases(200, judge.MysqlSummary(1000)), []string{
			"Database:\t\t       mysql 10.11.6-MariaDB-0+deb12u1\n",
			"DB readings:\t\t           3 from mysql://webload:xxxxx@127.0.0.1:3306/ over 10.00 s, 0 failed\n",
			"DB queries:\t\t        1000 (Questions), 100.00 queries/sec, 5.00 queries per transaction\n",
			"DB slow queries:\t           2\n",
			"DB rows read:\t\t        5000 rows, 25.00 rows per transaction\n",
			"DB connections:\t\t           9 at most\n",
			"DB buffer hit ratio:\t       99.50 %\n",
			"DB lock waits:\t\t           1 row lock waits\n",
			"DB deadlocks:\t\t           0\n",
			"DB temp disk tables:\t           4 temporary tables written to disk\n",
		}, []string{"Database 1", "temp files"}},
		{"two", judge.WithDatabases(100, judge.MysqlSummary(1000), failing), []string{
			"Database 1 of 2:\t       mysql 10.11.6-MariaDB-0+deb12u1\n",
			"Database 2 of 2:\t    postgres 15.5 (Debian 15.5-0+deb12u1)\n",
			"DB readings:\t\t           3 from postgres://webload:xxxxx@127.0.0.1:5432/webload?sslmode=disable over 10.00 s, 2 failed (first: reading postgres: dial tcp 127.0.0.1:5432: connection refused)\n",
			"DB queries:\t\t         300 (xact_commit+xact_rollback), 30.00 queries/sec, 3.00 queries per transaction\n",
			"DB lock waits:\t\t           2 waiting at most, at one reading\n",
			"DB temp files:\t\t        3.00 MB written\n",
		}, nil},
		{"dead", judge.WithDatabases(100, dead), []string{
			"Database:\t\t           ? not read\n",
			"DB readings:\t\t           0 from mysql://root:xxxxx@127.0.0.1:1/, 3 failed (first: reading mysql: dial tcp 127.0.0.1:1: connection refused)\n",
			"DB figures:\t\t       none: it takes two readings, before and after the run\n",
		}, []string{"DB queries", "DB connections"}},
		{"counters reset", judge.WithDatabases(100, reset), []string{
			"DB counters:\t\t       reset during the run (a restart, FLUSH STATUS or pg_stat_reset): their counts are left out\n",
		}, []string{"DB queries", "DB slow"}},
		{"no database", judge.WithDatabases(100), nil, []string{"Database", "DB "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			if err := report.WriteText(&b, &tc.rep, report.TextOptions{}); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in\n%s", w, got)
				}
			}
			for _, o := range tc.omit {
				if strings.Contains(got, o) {
					t.Errorf("%q in\n%s", o, got)
				}
			}
		})
	}
}

// A password in a database's source or error never reaches the result or its report, however
// the summary was made.
func TestDatabasePasswordHidden(t *testing.T) {
	t.Parallel()
	s := judge.MysqlSummary(100)
	s.Source = "mysql://root:s3cret-pw@127.0.0.1:3306/?password=s3cret-pw"
	s.Failures, s.FirstError = 1, `reading mysql://root:s3cret-pw@127.0.0.1:3306/: timeout`
	r := judge.WithDatabases(10, s, judge.PostgresSummary(10))
	var text, js strings.Builder
	if err := report.WriteText(&text, &r, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := stats.WriteJSON(&js, &r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "JSON": js.String()} {
		if strings.Contains(out, "s3cret") {
			t.Errorf("the password is in the %s:\n%s", name, out)
		}
		if !strings.Contains(out, "root:xxxxx@127.0.0.1:3306") {
			t.Errorf("the %s does not name the database:\n%s", name, out)
		}
	}
}
