package dbtest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/webload/webload/internal/nodeexportertest"
)

// Where Debian's packages install the database exporters.
const (
	MySQLExporterBinary    = "/usr/bin/prometheus-mysqld-exporter"
	PostgresExporterBinary = "/usr/bin/prometheus-postgres-exporter"
)

// MySQLExporter runs Debian's mysqld_exporter in front of s (from MariaDB) on a free loopback
// port and returns its metrics URL. It reads the account from a .my.cnf of its own, as
// mysqld_exporter 0.14 wants. The test is skipped when the exporter is not installed.
func MySQLExporter(t testing.TB, s *Server) string {
	t.Helper()
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		t.Fatalf("reading the server's address %q: %v", s.Addr, err)
	}
	cnf := filepath.Join(t.TempDir(), "my.cnf")
	body := fmt.Sprintf("[client]\nuser=%s\npassword=%s\nhost=%s\nport=%s\n", User, Password, host, port)
	if err := os.WriteFile(cnf, []byte(body), 0o600); err != nil {
		t.Fatalf("writing the exporter's my.cnf: %v", err)
	}
	return nodeexportertest.Run(t, MySQLExporterBinary, "prometheus-mysqld-exporter", nil, func(addr string) []string {
		return []string{"--web.listen-address=" + addr, "--config.my-cnf=" + cnf}
	})
}

// PostgresExporter runs Debian's postgres_exporter in front of s on a free loopback port and
// returns its metrics URL. postgres_exporter 0.11 reads the server from DATA_SOURCE_NAME. The
// test is skipped when the exporter is not installed.
//
// It runs on one thread (GOMAXPROCS=1). postgres_exporter 0.11 starts its bgwriter and
// database collectors at once and each opens the collectors' database handle if it is not
// open yet, with nothing between the check and the store: when both run in parallel on the
// first scrape, two handles are opened and the second keeps its idle connection for the
// exporter's life. Seen on a busy machine: sessions with pids 3487-3489 opened together,
// the legacy queries on one and each collector on one of its own, so every reading counted
// one connection more than the site had. On one thread the window is closed, and the tests
// count the connections the exporter is meant to keep.
func PostgresExporter(t testing.TB, s *Server) string {
	t.Helper()
	env := []string{"DATA_SOURCE_NAME=" + s.DSN, "GOMAXPROCS=1"}
	return nodeexportertest.Run(t, PostgresExporterBinary, "prometheus-postgres-exporter", env, func(addr string) []string {
		return []string{"--web.listen-address=" + addr}
	})
}

// Hold runs sql on n client connections at once, in the background, for tests that count
// connections; the returned wait blocks until all have ended and fails the test if one failed.
// Call it from the test's goroutine.
func (s *Server) Hold(t testing.TB, n int, sql string) (wait func()) {
	t.Helper()
	errs := make(chan error, n)
	for range n {
		go func() {
			out, err := s.admin(sql)
			if err != nil {
				err = fmt.Errorf("%s: running %q: %w\n%s", s.Kind, sql, err, out)
			}
			errs <- err
		}()
	}
	return func() {
		t.Helper()
		for range n {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	}
}
