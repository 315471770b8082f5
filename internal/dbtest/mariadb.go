package dbtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/webload/webload/internal/testtier"
)

// MariaDBOptions vary the server a test gets.
type MariaDBOptions struct {
	// PerformanceSchema starts the server with performance_schema on (it cannot be turned on
	// while the server runs), so that its statement digests can be read.
	PerformanceSchema bool
}

// MariaDB starts a MariaDB server with the account User/Password and the database Database.
// Its DSN is mysql://webload:…@127.0.0.1:PORT/.
func MariaDB(t testing.TB) *Server {
	t.Helper()
	return MariaDBWith(t, MariaDBOptions{})
}

// MariaDBWith starts a MariaDB server as MariaDB does, varied by opts.
func MariaDBWith(t testing.TB, opts MariaDBOptions) *Server {
	t.Helper()
	testtier.Program(t, "MariaDB")
	install := findBinary(t, "mariadb-server", "mariadb-install-db")
	server := findBinary(t, "mariadb-server", "mariadbd", "/usr/sbin")
	client := findBinary(t, "mariadb-client", "mariadb")

	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	sock := filepath.Join(dir, "mysqld.sock")
	logFile := filepath.Join(dir, "mysqld.log")
	// --user=root lets the server run as root, which it otherwise refuses; as anybody else
	// it is ignored. --tmpdir keeps the temporary tables of servers started at the same time
	// apart: in a shared /tmp their names can collide and fail the install.
	if out, err := run(install, "--no-defaults", "--datadir="+data, "--tmpdir="+dir, "--user=root",
		"--auth-root-authentication-method=socket", "--skip-test-db"); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	admin := func(sql string) (string, error) {
		return run(client, "--no-defaults", "--socket="+sock, "-uroot", "--batch", "--skip-column-names", "-e", sql)
	}
	perfSchema := "--performance-schema=OFF"
	if opts.PerformanceSchema {
		perfSchema = "--performance-schema=ON"
	}
	port, stop := launch(t, "mariadbd", logFile, syscall.SIGTERM, func(port int) *exec.Cmd {
		return exec.Command(server, "--no-defaults", "--datadir="+data, "--tmpdir="+dir, "--socket="+sock,
			"--pid-file="+filepath.Join(dir, "mysqld.pid"), "--log-error="+logFile, "--user=root",
			"--bind-address=127.0.0.1", fmt.Sprintf("--port=%d", port), "--skip-name-resolve",
			"--innodb-buffer-pool-size=32M", "--innodb-log-file-size=16M", perfSchema)
	}, func(int) error {
		if _, err := os.Stat(sock); err != nil {
			return err
		}
		_, err := admin("SELECT 1")
		return err
	})
	s := &Server{
		Kind:  "mysql",
		Addr:  fmt.Sprintf("127.0.0.1:%d", port),
		DSN:   fmt.Sprintf("mysql://%s:%s@127.0.0.1:%d/", User, Password, port),
		stop:  stop,
		admin: admin,
	}
	for _, host := range []string{"127.0.0.1", "localhost"} {
		s.Exec(t, fmt.Sprintf("CREATE USER '%s'@'%s' IDENTIFIED BY '%s'; GRANT ALL ON *.* TO '%s'@'%s'",
			User, host, Password, User, host))
	}
	s.Exec(t, "CREATE DATABASE "+Database)
	return s
}
