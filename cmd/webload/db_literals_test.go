package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/dbsite"
	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/internal/testtier"
)

// A statement whose text holds values (a literal in its WHERE, quoted values in a comment, as
// tracing libraries write them) is listed on real MariaDB and PostgreSQL without them, in the
// text report, the JSON and the HTML page: PostgreSQL keeps a statement's comments in
// pg_stat_statements, values and all.
func TestDBStatementsHideLiterals(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	const secret = "hunter2lit"
	extra := "SELECT count(*) FROM dbsite_parts WHERE name <> '" + secret + "' /* user='" + secret + "' */"
	for _, s := range []struct {
		label string
		srv   func(t *testing.T) *dbtest.Server
	}{
		{"mariadb", func(t *testing.T) *dbtest.Server {
			return dbtest.MariaDBWith(t, dbtest.MariaDBOptions{PerformanceSchema: true})
		}},
		{"postgres", func(t *testing.T) *dbtest.Server {
			return dbtest.Postgres(t, dbtest.PostgresOptions{StatStatements: true})
		}},
	} {
		t.Run(s.label, func(t *testing.T) {
			t.Parallel()
			srv := s.srv(t)
			site := startDBSite(t, dbsite.Options{DSN: srv.DSN, Extra: extra})
			dir := t.TempDir()
			out, page := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
			stdout, stderr, code := webload(t, nil, "-c", "1", "-r", "5", "--db", srv.DSN, "--db-statements-top", "50",
				"-o", out, "--html", page, site.URL()+"/item?id=3")
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, "dbsite_parts") {
				t.Errorf("the statement is not listed:\n%s", stdout)
			}
			for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "JSON": readFile(t, out), "HTML": readFile(t, page)} {
				if strings.Contains(text, secret) {
					t.Errorf("%s shows the statement's literal %q", what, secret)
				}
			}
		})
	}
}
