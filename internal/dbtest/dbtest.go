// Package dbtest starts MariaDB and PostgreSQL from Debian's packages for tests: each server in
// a throwaway data directory, on a free loopback port, with a password account, stopped and
// removed when the test ends. A test that needs a server the machine does not have is
// skipped, saying which package to install.
package dbtest

import (
	"errors"
	"fmt"
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

// launchTries is how many ports launch tries before it gives up.
const launchTries = 3

// launch starts a server on a free loopback port and waits until ready answers, returning the
// port and the function that stops the server. A free port is found by binding port 0 and
// closing it, so another process (a test beside this one, another suite on the machine) can
// take it before the server binds it: a server that exits before it is ready, saying in its
// log that the address is in use, is started again on another port. start makes the command
// for a port (the server writes its log to logFile); sig asks it to shut down.
func launch(t testing.TB, what, logFile string, sig os.Signal, start func(port int) *exec.Cmd, ready func(port int) error) (int, func()) {
	t.Helper()
	for try := 1; ; try++ {
		port := freePort(t)
		from := logSize(logFile)
		cmd := start(port)
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting %s: %v", what, err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		stop := stopper(cmd, exited, sig)
		err := waitReady(exited, func() error { return ready(port) })
		if err == nil {
			t.Cleanup(stop)
			return port, stop
		}
		stop()
		log := logSince(logFile, from)
		if errors.Is(err, errExited) && strings.Contains(log, "Address already in use") && try < launchTries {
			continue // the port was taken meanwhile
		}
		t.Fatalf("%s did not start: %v\n%s", what, err, log)
	}
}

// errExited says a server ended before it was ready.
var errExited = errors.New("the server exited")

// waitReady polls ready until it succeeds, the server exits, or 60 s pass.
func waitReady(exited <-chan struct{}, ready func() error) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := ready()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("%w (%v)", errExited, err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready in 60 s: %w", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// logSize is how long the log is now: what a new start writes comes after it.
func logSize(path string) int64 {
	if fi, err := os.Stat(path); err == nil {
		return fi.Size()
	}
	return 0
}

// logSince is the log from offset from on.
func logSince(path string, from int64) string {
	b, _ := os.ReadFile(path)
	if from > int64(len(b)) {
		from = 0
	}
	return string(b[from:])
}

// run runs a command and returns its combined output.
func run(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}

// stopper returns the function that stops a server started as cmd, whose Wait closes exited:
// sig asks it to shut down, and a server still running 30 s later is killed. Later calls do
// nothing.
func stopper(cmd *exec.Cmd, exited <-chan struct{}, sig os.Signal) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = cmd.Process.Signal(sig)
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		})
	}
}
