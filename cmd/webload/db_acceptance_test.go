package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/dbsite"
	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/stats"
)

// dbServers start each kind of database the acceptance tests run against.
var dbServers = []struct {
	name  string
	start func(t *testing.T) *dbtest.Server
}{
	{"mariadb", func(t *testing.T) *dbtest.Server { return dbtest.MariaDB(t) }},
	{"postgres", func(t *testing.T) *dbtest.Server {
		return dbtest.Postgres(t, dbtest.PostgresOptions{StatStatements: true})
	}},
}

// startDBSite serves a dbsite on the server's database for the test's length.
func startDBSite(t *testing.T, opts dbsite.Options) *dbsite.Site {
	t.Helper()
	site, err := dbsite.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	return site
}

// noPassword fails the test if the database's password shows in any of outputs.
func noPassword(t *testing.T, what string, outputs ...string) {
	t.Helper()
	for _, o := range outputs {
		if strings.Contains(o, dbtest.Password) {
			t.Errorf("%s: the database password shows:\n%s", what, o)
		}
	}
}

// readFile returns a file's text, failing the test if it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A run with --db against each real database counts exactly the statements the site's pages
// sent, 100 pages of K statements, and reports them per transaction, in the JSON and in the
// text's Database block; the password shows in no output.
func TestDBQueriesPerRun(t *testing.T) {
	t.Parallel()
	const perItem = 3
	for _, db := range dbServers {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel()
			srv := db.start(t)
			site := startDBSite(t, dbsite.Options{DSN: srv.DSN, PerItem: perItem})
			out := filepath.Join(t.TempDir(), "run.json")
			stdout, stderr, code := webload(t, nil, "-c", "4", "-r", "25", "--interval", "200ms",
				"--db", srv.DSN, "-o", out, site.URL()+"/item?id=3")
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			noPassword(t, "the run", stdout, stderr, readFile(t, out))
			rep, err := stats.ReadJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			d := rep.Database
			if d == nil {
				t.Fatalf("no database in the JSON:\n%s", readFile(t, out))
			}
			if d.Kind != srv.Kind || d.Failures != 0 || d.Samples < 2 {
				t.Errorf("database %s, %d readings, %d failed (%s)", d.Kind, d.Samples, d.Failures, d.FirstError)
			}
			if sent := site.Statements(); sent != 100*perItem {
				t.Fatalf("the site ran %d statements, want %d", sent, 100*perItem)
			}
			if d.Queries == nil || *d.Queries != 100*perItem {
				t.Errorf("queries %v (%s), want %d", d.Queries, d.QueriesSource, 100*perItem)
			}
			if q := d.QueriesPerTransaction; q == nil || *q != perItem {
				t.Errorf("queries per transaction %v, want %d", q, perItem)
			}
			for _, want := range []string{"Database:", "DB queries:", "queries per transaction", srv.Kind} {
				if !strings.Contains(stdout, want) {
					t.Errorf("the text report has no %q:\n%s", want, stdout)
				}
			}
		})
	}
}
