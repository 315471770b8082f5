package dbload

import (
	"strings"
	"testing"
)

// A mysql:// DSN becomes the driver's configuration field by field, with the reader's
// timeouts and no connection parameter that would make the driver send statements of its own.
func TestMySQLConfig(t *testing.T) {
	t.Parallel()
	type want struct{ net, addr, user, pass, db, tls string }
	for _, tc := range []struct {
		name, dsn string
		want      want
	}{
		{"host and port", "mysql://webload:s3cret@127.0.0.1:3307/", want{"tcp", "127.0.0.1:3307", "webload", "s3cret", "", ""}},
		{"default port", "mysql://webload:s3cret@db.example/", want{"tcp", "db.example:3306", "webload", "s3cret", "", ""}},
		{"ipv6", "mysql://webload:s3cret@[::1]:3307", want{"tcp", "[::1]:3307", "webload", "s3cret", "", ""}},
		{"ipv6, default port", "mysql://webload@[::1]/", want{"tcp", "[::1]:3306", "webload", "", "", ""}},
		{"database", "mysql://webload:s3cret@db/shop", want{"tcp", "db:3306", "webload", "s3cret", "shop", ""}},
		{"escaped password and database", "mysql://web%20load:p%40ss%2Fw@db/my%20shop", want{"tcp", "db:3306", "web load", "p@ss/w", "my shop", ""}},
		{"unix socket", "mysql://webload:s3cret@localhost/?socket=/run/mysqld/mysqld.sock", want{"unix", "/run/mysqld/mysqld.sock", "webload", "s3cret", "", ""}},
		{"unix socket, no host", "mysql://webload@/?socket=%2Ftmp%2Fm.sock&password=s3cret", want{"unix", "/tmp/m.sock", "webload", "s3cret", "", ""}},
		{"password and user parameters", "mysql://db/?user=webload&password=s3cret", want{"tcp", "db:3306", "webload", "s3cret", "", ""}},
		{"user information wins over parameters", "mysql://webload:s3cret@db/?user=other&passwd=other", want{"tcp", "db:3306", "webload", "s3cret", "", ""}},
		{"tls", "mysql://webload@db/?tls=true", want{"tcp", "db:3306", "webload", "", "", "true"}},
		{"tls skip-verify", "mariadb://webload@db/?TLS=Skip-Verify", want{"tcp", "db:3306", "webload", "", "", "skip-verify"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target, err := ParseTarget(tc.dsn)
			if err != nil {
				t.Fatalf("ParseTarget: %v", err)
			}
			cfg, err := mysqlConfig(target)
			if err != nil {
				t.Fatalf("mysqlConfig(%q): %v", tc.dsn, err)
			}
			got := want{cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName, cfg.TLSConfig}
			if got != tc.want {
				t.Errorf("mysqlConfig(%q) = %+v, want %+v", tc.dsn, got, tc.want)
			}
			if cfg.Timeout != mysqlTimeout || cfg.ReadTimeout != mysqlTimeout || cfg.WriteTimeout != mysqlTimeout {
				t.Errorf("timeouts %v %v %v, want %v", cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout, mysqlTimeout)
			}
			if len(cfg.Params) != 0 {
				t.Errorf("connection parameters %v: the driver would send them as statements", cfg.Params)
			}
		})
	}
}

// A DSN the reader cannot use is refused before any connection, naming what is wrong
// without the password.
func TestMySQLConfigRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, dsn, says string }{
		{"driver parameter", "mysql://webload:s3cret@db/?parseTime=true", `unknown parameter "parseTime"`},
		{"unknown tls", "mysql://webload:s3cret@db/?tls=custom", `tls="custom"`},
		{"path beyond a database", "mysql://webload:s3cret@db/shop/more", "database name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Refused at start, as bad input, not at the first reading.
			_, err := ParseTarget(tc.dsn)
			if err == nil {
				t.Fatalf("ParseTarget(%q) succeeded", tc.dsn)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.says) || strings.Contains(msg, "s3cret") {
				t.Errorf("error %q: want it to say %q, without the password", msg, tc.says)
			}
		})
	}
}
