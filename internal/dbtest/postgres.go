package dbtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/webload/webload/internal/testtier"
)

// PostgresOptions vary the server a test gets.
type PostgresOptions struct {
	// StatStatements loads pg_stat_statements and creates the extension in Database.
	StatStatements bool
}

// Postgres starts a PostgreSQL server with the account User/Password (a superuser) and the
// database Database. Its DSN is postgres://webload:…@127.0.0.1:PORT/webload?sslmode=disable.
// PostgreSQL refuses to run as root: as root the server runs as the postgres account that
// Debian's package creates.
func Postgres(t testing.TB, opts PostgresOptions) *Server {
	t.Helper()
	testtier.Program(t, "PostgreSQL")
	globs := []string{"/usr/lib/postgresql/*/bin"}
	initdb := findBinary(t, "postgresql", "initdb", globs...)
	server := findBinary(t, "postgresql", "postgres", globs...)
	psql := findBinary(t, "postgresql-client", "psql", globs...)

	var runAs *syscall.SysProcAttr // nil: as this process's user
	// A folder of our own rather than t.TempDir: the server's account must be able to reach
	// it, and the test's temporary folder is private to root.
	dir, err := os.MkdirTemp("", "webload-pg-")
	if err != nil {
		t.Fatalf("making a data folder: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skipf("running as root and no postgres account to run PostgreSQL as (%v); apt-get install postgresql makes one", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		runAs = asUser(uid, gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatalf("handing the data folder to postgres: %v", err)
		}
	}
	command := func(name string, args ...string) *exec.Cmd {
		c := exec.Command(name, args...)
		c.Dir = dir
		c.SysProcAttr = runAs
		return c
	}
	data := filepath.Join(dir, "data")
	pwFile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwFile, []byte(Password+"\n"), 0o644); err != nil {
		t.Fatalf("writing the password file: %v", err)
	}
	if out, err := command(initdb, "-D", data, "-U", User, "--pwfile="+pwFile, "--auth-local=trust",
		"--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	logFile := filepath.Join(dir, "postgres.log")
	db := "postgres"
	admin := func(port int, sql string) (string, error) {
		out, err := command(psql, "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
			"-h", dir, "-p", strconv.Itoa(port), "-U", User, "-d", db, "-c", sql).CombinedOutput()
		return string(out), err
	}
	logs, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatalf("creating the server log: %v", err)
	}
	defer logs.Close()
	// SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing is waited for.
	port, stop := launch(t, "postgres", logFile, syscall.SIGINT, func(port int) *exec.Cmd {
		// Autovacuum off from the start: a worker is a backend of the database it visits, so it
		// would show up at random in the transaction and connection counts the tests check.
		args := []string{"-D", data, "-k", dir, "-h", "127.0.0.1", "-p", strconv.Itoa(port),
			"-c", "fsync=off", "-c", "shared_buffers=16MB", "-c", "logging_collector=off",
			"-c", "autovacuum=off"}
		if opts.StatStatements {
			args = append(args, "-c", "shared_preload_libraries=pg_stat_statements")
		}
		cmd := command(server, args...)
		cmd.Stdout, cmd.Stderr = logs, logs
		return cmd
	}, func(port int) error {
		_, err := admin(port, "SELECT 1")
		return err
	})
	s := &Server{
		Kind: "postgres",
		Addr: fmt.Sprintf("127.0.0.1:%d", port),
		DSN:  fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/%s?sslmode=disable", User, Password, port, Database),
		stop: stop,
	}
	s.admin = func(sql string) (string, error) { return admin(port, sql) }
	s.Exec(t, "CREATE DATABASE "+Database)
	db = Database
	if opts.StatStatements {
		s.Exec(t, "CREATE EXTENSION pg_stat_statements")
	}
	return s
}
