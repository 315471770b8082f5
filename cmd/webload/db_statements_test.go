package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/internal/dbsite"
	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
)

// The statements of the dbsite's /item page: A read the item, B its parts, and the extra one
// only the PostgreSQL stack's site runs.
const (
	stmtItem  = "SELECT name FROM dbsite_items WHERE id = ?"
	stmtParts = "SELECT name FROM dbsite_parts WHERE item_id = ? ORDER BY id"
	stmtExtra = "SELECT count(*) FROM dbsite_parts"
)

// statementCalls is the calls and calls per transaction of the statement of st matching text.
func statementCalls(t *testing.T, st *dbload.Statements, text string) (int64, float64, bool) {
	t.Helper()
	for _, s := range st.List {
		if dbload.NormalizeStatement(s.Text) == dbload.NormalizeStatement(text) {
			if s.CallsPerTransaction == nil {
				t.Fatalf("%q has no calls per transaction", text)
			}
			return s.Calls, *s.CallsPerTransaction, true
		}
	}
	return 0, 0, false
}

// A run with --db against a site whose page runs statement A twice and B three times counts
// exactly those calls, per transaction too, on real MariaDB (performance_schema) and
// PostgreSQL (pg_stat_statements); the run's text lists them. compare of the two results
// matches the statements across the stacks, per transaction, names the statement that only
// the PostgreSQL stack runs, and keeps the section in its JSON.
func TestDBStatementsAcrossStacks(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	dir := t.TempDir()
	// MariaDB's performance_schema can miss calls of a statement that several connections run
	// at the same moment (seen: 1 to 8 of 300 at 4 users on a busy machine, whatever the wait
	// after the run), so its known workload runs one user at a time; PostgreSQL's counts hold
	// at 4 users.
	stacks := []struct {
		label       string
		srv         *dbtest.Server
		extra       string
		users, reps string
	}{
		{"mariadb", dbtest.MariaDBWith(t, dbtest.MariaDBOptions{PerformanceSchema: true}), "", "1", "100"},
		{"postgres", dbtest.Postgres(t, dbtest.PostgresOptions{StatStatements: true}), stmtExtra, "4", "25"},
	}
	const pages = 100
	var files []string
	var sites []*dbsite.Site
	for _, s := range stacks {
		site := startDBSite(t, dbsite.Options{DSN: s.srv.DSN, ItemReads: 2, PerItem: 4, Extra: s.extra})
		sites = append(sites, site)
		out := filepath.Join(dir, s.label+".json")
		files = append(files, out)
		stdout, stderr, code := webload(t, nil, "-c", s.users, "-r", s.reps, "--label", s.label, "--db", s.srv.DSN, "-o", out, site.URL()+"/item?id=3")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", s.label, code, stdout, stderr)
		}
		noPassword(t, s.label, stdout, stderr)
		rep, err := stats.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		st := rep.Database.Statements
		if st == nil || st.Unavailable != "" {
			t.Fatalf("%s: statements %+v", s.label, st)
		}
		for _, w := range []struct {
			text  string
			perTx int64
		}{{stmtItem, 2}, {stmtParts, 3}, {stmtExtra, map[bool]int64{true: 1}[s.extra != ""]}} {
			calls, perTx, found := statementCalls(t, st, w.text)
			if calls != pages*w.perTx || found != (w.perTx > 0) || found && perTx != float64(w.perTx) {
				t.Errorf("%s: %q ran %d times (%v per transaction, listed %v), want %d, %d per transaction",
					s.label, w.text, calls, perTx, found, pages*w.perTx, w.perTx)
			}
		}
		if !strings.Contains(stdout, "DB statements:") || !strings.Contains(stdout, "calls/tx") {
			t.Errorf("%s: the text report has no statements:\n%s", s.label, stdout)
		}
	}

	// A --repeat series adds its runs' statements: twice the calls, the same per transaction.
	series := filepath.Join(dir, "series.json")
	if stdout, stderr, code := webload(t, nil, "-c", stacks[0].users, "-r", stacks[0].reps, "--repeat", "2", "--repeat-pause", "0", "--db", stacks[0].srv.DSN,
		"-o", series, sites[0].URL()+"/item?id=3"); code != 0 {
		t.Fatalf("series: exit %d\n%s%s", code, stdout, stderr)
	}
	rep, err := stats.ReadJSON(series)
	if err != nil {
		t.Fatal(err)
	}
	if calls, perTx, _ := statementCalls(t, rep.Database.Statements, stmtParts); calls != 2*pages*3 || perTx != 3 {
		t.Errorf("series: %q ran %d times, %v per transaction; want %d, 3", stmtParts, calls, perTx, 2*pages*3)
	}

	stdout, stderr, code := webload(t, nil, "compare", files[0], files[1])
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		`Statements, per transaction, "mariadb" -> "postgres"`,
		`2.00 -> 2.00`, "select name from dbsite_items where id = ?",
		`3.00 -> 3.00`, "select name from dbsite_parts where item_id = ? order by id",
		`Only on "mariadb": none`,
		`Only on "postgres" (calls/tx, ms/tx):`,
		"1.00", "select count ( * ) from dbsite_parts",
		"Biggest contributors to the change in database time per transaction",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("compare's text has no %q:\n%s", want, stdout)
		}
	}
	t.Logf("compare:\n%s", stdout)
	stdout, _, _ = webload(t, nil, "compare", "--format", "json", files[0], files[1])
	var got struct {
		Statements []dbload.StatementsComparison `json:"statements"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got.Statements) != 1 {
		t.Fatalf("compare's JSON: %v, %d statements sections\n%s", err, len(got.Statements), stdout)
	}
	only := 0
	for _, s := range got.Statements[0].Statements {
		if s.On == dbload.OnCandidate {
			only++
		}
	}
	if only != 1 {
		t.Errorf("compare's JSON has %d statements on postgres only, want 1: %+v", only, got.Statements[0].Statements)
	}
}
