package dbtest

import (
	"strings"
	"testing"
)

// Each server starts, answers SQL, and has the test's account and database.
func TestServersStart(t *testing.T) {
	t.Run("mariadb", func(t *testing.T) {
		s := MariaDB(t)
		if got := s.Exec(t, "SELECT COUNT(*) FROM mysql.user WHERE user='"+User+"'"); got != "2" {
			t.Errorf("accounts named %s: %q, want 2", User, got)
		}
		if got := s.Exec(t, "SHOW DATABASES LIKE '"+Database+"'"); got != Database {
			t.Errorf("database: %q", got)
		}
		if !strings.HasPrefix(s.DSN, "mysql://") {
			t.Errorf("DSN %q", s.DSN)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		s := Postgres(t, PostgresOptions{StatStatements: true})
		if got := s.Exec(t, "SELECT current_database()"); got != Database {
			t.Errorf("database: %q", got)
		}
		if got := s.Exec(t, "SELECT count(*) FROM pg_extension WHERE extname='pg_stat_statements'"); got != "1" {
			t.Errorf("pg_stat_statements: %q", got)
		}
	})
}
