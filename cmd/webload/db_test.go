package main

import (
	"strings"
	"testing"
)

// A --db that is not a database's DSN is a usage error before anything runs: one line naming
// the flag, the value with its password hidden.
func TestDBFlagRejectsBadDSN(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	tests := []struct{ name, dsn, says string }{
		{"unknown scheme", "oracle://scott:s3cret-word@127.0.0.1:1521/orcl", `--db: parsing database "oracle://scott:xxxxx@127.0.0.1:1521/orcl": want mysql://`},
		{"no host", "mysql://webload:s3cret-word@/", `--db: parsing database "mysql://webload:xxxxx@/": no host`},
		{"not a URL", "postgres://webload:s3cret-word@127.0.0.1:port/db", `--db: parsing database "postgres://webload:xxxxx@127.0.0.1:port/db": not a URL`},
		{"password parameter", "mysql:///?password=s3cret-word", `--db: parsing database "mysql:///?password=xxxxx": no host`},
		{"a parameter the MySQL reader refuses", "mysql://webload:s3cret-word@127.0.0.1:3306/?foo=bar", `--db: reading mysql://webload:xxxxx@127.0.0.1:3306/?foo=bar: unknown parameter "foo"`},
		{"a bad MySQL tls", "mysql://webload:s3cret-word@127.0.0.1:3306/?tls=maybe", `tls="maybe": want true, false, skip-verify or preferred`},
		{"a bad PostgreSQL sslmode", "postgres://webload:s3cret-word@127.0.0.1:5432/db?sslmode=bogus", `sslmode is invalid`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, "-q", "-c", "1", "-r", "1", "--db", tc.dsn, site.URL+"/")
			if code != 2 {
				t.Errorf("exit %d, want 2\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, tc.says) {
				t.Errorf("stderr does not say %q:\n%s", tc.says, stderr)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 {
				t.Errorf("%d lines on stderr, want 1:\n%s", lines, stderr)
			}
			if strings.Contains(stdout+stderr, "s3cret-word") {
				t.Errorf("the password shows:\n%s%s", stdout, stderr)
			}
			if n := site.snapshot()["/"]; n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}
