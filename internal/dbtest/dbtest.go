// Package dbtest starts MariaDB and PostgreSQL from Debian's packages for tests: each server in
// a throwaway data directory, on a free loopback port, with a password account, stopped and
// removed when the test ends. A test that needs a server the machine does not have is
// skipped, saying which package to install.
package dbtest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// User and Password are the account each server is given; Database the database made for the
// test.
const (
	User     = "webload"
	Password = "s3cret-db-pass"
	Database = "webload"
)

// Server is a running database server.
type Server struct {
	// DSN reaches the server over TCP with the password account, in --db's form.
	DSN string
	// Addr is its host:port on loopback.
	Addr string
	// Kind is "mysql" or "postgres".
	Kind string

	// admin runs SQL through the server's own command-line client, as its superuser over
	// its Unix socket, so that tests need no driver to set a server up.
	admin func(sql string) (string, error)
	// stop ends the server (Server.Stop).
	stop func()
}

// Exec runs SQL as the server's superuser and returns the client's output, tab-separated, one
// line per row and no header. It fails the test on error.
func (s *Server) Exec(t testing.TB, sql string) string {
	t.Helper()
	out, err := s.admin(sql)
	if err != nil {
		t.Fatalf("%s: running %q: %v\n%s", s.Kind, sql, err, out)
	}
	return strings.TrimSpace(out)
}

// Stop ends the server before the test does, for tests of a database that went away; the
// cleanup does nothing more then.
func (s *Server) Stop() { s.stop() }

// freePort returns a loopback port nobody listens on now.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// findBinary looks for name on the PATH, then in the folders given (globs, newest version
// last), and skips the test when it is nowhere.
func findBinary(t testing.TB, pkg, name string, globs ...string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, g := range globs {
		m, _ := filepath.Glob(filepath.Join(g, name))
		if len(m) > 0 {
			return m[len(m)-1]
		}
	}
	t.Skipf("%s not found; apt-get install %s enables this test", name, pkg)
	return ""
}

// waitFor polls ready until it succeeds or the deadline passes, then fails the test with the
// server's log.
func waitFor(t testing.TB, what string, logFile string, ready func() error) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := ready()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logFile)
			t.Fatalf("%s did not start in 60 s: %v\n%s", what, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// run runs a command and returns its combined output.
func run(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}

// stopper returns the function that stops a server started as cmd: sig asks it to shut down,
// and a server still running 30 s later is killed. Later calls do nothing.
func stopper(cmd *exec.Cmd, sig os.Signal) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = cmd.Process.Signal(sig)
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
		})
	}
}
