package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/internal/dbsite"
	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
)

// findStatement is the statement of st whose normalised text is text's.
func findStatement(st *dbload.Statements, text string) *dbload.Statement {
	for i := range st.List {
		if dbload.NormalizeStatement(st.List[i].Text) == dbload.NormalizeStatement(text) {
			return &st.List[i]
		}
	}
	return nil
}

// A page that sleeps 0.2 s in its database (SLEEP on MariaDB, pg_sleep on PostgreSQL) has that
// statement counted slow once per page, exactly, with its slowest call at 200 ms at least, over
// a threshold webload sets itself; the page's fast statements are not slow. The run's text and
// JSON say so, and compare names the statement slow on one side only against a stack whose
// page does not sleep. The threshold sits under the sleep and far above the fast statements'
// sub-millisecond times, so that a busy machine does not make them slow.
func TestDBSlowStatements(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	const pages, sleep, limit = 6, 200 * time.Millisecond, 190 * time.Millisecond
	maria := dbtest.MariaDBWith(t, dbtest.MariaDBOptions{PerformanceSchema: true})
	pg := dbtest.Postgres(t, dbtest.PostgresOptions{StatStatements: true})
	dir := t.TempDir()
	for _, s := range []struct {
		label string
		srv   *dbtest.Server
		sleep string
	}{
		{"mariadb", maria, "SELECT SLEEP(0.2)"},
		{"postgres", pg, "SELECT pg_sleep(0.2)::text"},
		{"postgres-fast", pg, ""},
	} {
		site := startDBSite(t, dbsite.Options{DSN: s.srv.DSN, ItemReads: 2, PerItem: 2, Extra: s.sleep})
		out := filepath.Join(dir, s.label+".json")
		// One user: MariaDB's performance_schema adds a call to its digest summary without a
		// lock, and two calls of one statement that end together can count one call (seen: 5
		// calls, with the time and rows of 6), where its pages are exact.
		stdout, stderr, code := webload(t, nil, "-c", "1", "-r", strconv.Itoa(pages), "--label", s.label, "--db", s.srv.DSN,
			"--db-slow", limit.String(), "-o", out, site.URL()+"/item?id=3")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", s.label, code, stdout, stderr)
		}
		t.Logf("%s:\n%s", s.label, stdout)
		rep, err := stats.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		st := rep.Database.Statements
		if st == nil || st.Unavailable != "" || st.SlowThreshold != limit {
			t.Fatalf("%s: statements %+v", s.label, st)
		}
		for _, fast := range []string{stmtItem, stmtParts} {
			if f := findStatement(st, fast); f == nil || f.Calls == 0 || f.SlowCalls != 0 || f.Max == nil {
				t.Errorf("%s: fast statement %q: %+v, want no slow call and its slowest kept", s.label, fast, f)
			}
		}
		if s.sleep == "" {
			if st.SlowStatements != 0 || st.SlowCalls != 0 || !strings.Contains(stdout, "none had a call over "+limit.String()) {
				t.Errorf("%s: %d slow statements, %d slow calls; want none", s.label, st.SlowStatements, st.SlowCalls)
			}
			continue
		}
		slow := findStatement(st, s.sleep)
		if slow == nil || slow.Calls != pages || slow.SlowCalls != pages || !slow.SlowExact || slow.Max == nil || *slow.Max < sleep || slow.MaxFromBefore {
			t.Fatalf("%s: the sleeping statement %+v, want %d slow calls of %d, exact, the slowest at least %v", s.label, slow, pages, pages, sleep)
		}
		if st.SlowStatements != 1 || st.SlowCalls != pages {
			t.Errorf("%s: %d slow statements, %d slow calls; want 1, %d", s.label, st.SlowStatements, st.SlowCalls, pages)
		}
		for _, want := range []string{"DB slow statements:", "1 had a call over 190ms, 6 slow calls", "max ms"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: the text has no %q", s.label, want)
			}
		}
	}

	stdout, stderr, code := webload(t, nil, "compare", filepath.Join(dir, "postgres-fast.json"), filepath.Join(dir, "mariadb.json"))
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s%s", code, stdout, stderr)
	}
	t.Logf("compare:\n%s", stdout)
	for _, want := range []string{"Slow statements (a call over 190ms;", "- -> 6", `select sleep ( ? )  [slow on "mariadb" only]`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("compare's text has no %q", want)
		}
	}
	stdout, _, _ = webload(t, nil, "compare", "--format", "json", filepath.Join(dir, "postgres-fast.json"), filepath.Join(dir, "mariadb.json"))
	var got struct {
		Statements []dbload.StatementsComparison `json:"statements"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got.Statements) != 1 {
		t.Fatalf("compare's JSON: %v\n%s", err, stdout)
	}
	var slowOn []string
	for _, s := range got.Statements[0].Statements {
		if s.SlowOn != "" {
			slowOn = append(slowOn, s.SlowOn+": "+s.Key)
			if s.Slow.Calls != pages || !s.Slow.Exact {
				t.Errorf("compare's JSON: %+v, want %d slow calls on the candidate", s, pages)
			}
		}
	}
	if len(slowOn) != 1 || slowOn[0] != dbload.OnCandidate+": select sleep ( ? )" {
		t.Errorf("compare's JSON has slow statements %q, want the sleep on the candidate only", slowOn)
	}
}
