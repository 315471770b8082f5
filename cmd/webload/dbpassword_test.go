package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/dbsite"
	"github.com/webload/webload/internal/dbtest"
)

// A --db DSN without its password takes it from the environment its database's own client
// reads (PGPASSWORD, MYSQL_PWD) or from the file its password_file parameter names, so that
// it is not in argv: against each real database the run connects and counts exactly the
// statements sent, and the password shows in no output. A password file that is missing or
// not a regular file is a one-line usage error naming it.
func TestDBPasswordOutOfArgv(t *testing.T) {
	t.Parallel()
	envName := map[string]string{"mysql": "MYSQL_PWD", "postgres": "PGPASSWORD"}
	for _, db := range dbServers {
		srv := db.start(t)
		site := startDBSite(t, dbsite.Options{DSN: srv.DSN, PerItem: 2})
		bare := strings.Replace(srv.DSN, ":"+dbtest.Password+"@", "@", 1)
		if bare == srv.DSN {
			t.Fatalf("no password to take out of %s", srv.DSN)
		}
		withParam := func(dsn, param string) string {
			if strings.Contains(dsn, "?") {
				return dsn + "&" + param
			}
			return dsn + "?" + param
		}
		dir := t.TempDir()
		file := filepath.Join(dir, "db-password")
		if err := os.WriteFile(file, []byte(dbtest.Password+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			env  map[string]string
			dsn  string
		}{
			{"from " + envName[srv.Kind], map[string]string{envName[srv.Kind]: dbtest.Password}, bare},
			{"from a password file", nil, withParam(bare, "password_file="+file)},
		}
		for _, tc := range tests {
			t.Run(srv.Kind+" "+tc.name, func(t *testing.T) {
				before := site.Statements()
				rep, _, _ := dbRunEnv(t, tc.env, "-c", "2", "-r", "10", "--db", tc.dsn, site.URL()+"/item?id=2")
				sent := site.Statements() - before
				if sent != 40 {
					t.Fatalf("the site ran %d statements, want 40", sent)
				}
				wantQueries(t, rep.Database, srv.Kind, sent, 20)
			})
		}
		t.Run(srv.Kind+" the password file is bad", func(t *testing.T) {
			for _, path := range []string{filepath.Join(dir, "missing"), dir} {
				stdout, stderr, code := webload(t, nil, "-c", "1", "-r", "1", "--db", withParam(bare, "password_file="+path), site.URL()+"/item?id=2")
				if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "password file "+path+":") {
					t.Errorf("%s: exit %d, want 2 and one line naming it\n%s%s", path, code, stdout, stderr)
				}
			}
		})
	}
}
