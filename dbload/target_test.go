package dbload

import (
	"errors"
	"strings"
	"testing"
)

// ParseTarget tells the kind from the scheme and refuses what it cannot read, naming the DSN
// without its password.
func TestParseTarget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, raw, kind, shown string
		wantErr                bool
	}{
		{"mysql", "mysql://webload:s3cret@127.0.0.1:3306/", KindMySQL, "mysql://webload:xxxxx@127.0.0.1:3306/", false},
		{"mariadb scheme", "mariadb://webload:s3cret@db.example:3307/shop", KindMySQL, "mariadb://webload:xxxxx@db.example:3307/shop", false},
		{"scheme in capitals", "MySQL://webload:s3cret@db/", KindMySQL, "mysql://webload:xxxxx@db/", false},
		{"no password", "mysql://webload@db/", KindMySQL, "mysql://webload@db/", false},
		{"password parameter", "mysql://webload@db/?password=s3cret&tls=true", KindMySQL, "mysql://webload@db/?password=xxxxx&tls=true", false},
		{"unix socket, no host", "mysql://webload:s3cret@/?socket=/run/mysqld/mysqld.sock", KindMySQL, "mysql://webload:xxxxx@/?socket=/run/mysqld/mysqld.sock", false},
		{"ipv6", "mysql://webload:s3cret@[::1]:3306/", KindMySQL, "mysql://webload:xxxxx@[::1]:3306/", false},
		{"postgres", "postgres://webload:s3cret@127.0.0.1:5432/webload?sslmode=disable", KindPostgres, "postgres://webload:xxxxx@127.0.0.1:5432/webload?sslmode=disable", false},
		{"postgres sslpassword", "postgres://webload@db/webload?sslpassword=s3cret&sslmode=require", KindPostgres, "postgres://webload@db/webload?sslpassword=xxxxx&sslmode=require", false},
		{"exporter", "http://127.0.0.1:9104/metrics", "", "http://127.0.0.1:9104/metrics", false},
		{"no host", "mysql://webload:s3cret@/", "", "", true},
		{"unknown scheme", "ftp://webload:s3cret@db/", "", "", true},
		{"not a URL", "mysql://webload:s3cret@db:port/", "", "", true},
		{"blank in the password", "mysql://webload:s3cret and more@db/", "", "", true},
		{"quote in the password", `mysql://webload:s3"cret@db/`, "", "", true},
		{"no scheme", "webload:s3cret@db", "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseTarget(tc.raw)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("ParseTarget(%q) = %+v, want an error", tc.raw, got)
				}
				if strings.Contains(err.Error(), "s3cret") {
					t.Errorf("error %q shows the password", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTarget(%q): %v", tc.raw, err)
			}
			if got.Kind != tc.kind || got.String() != tc.shown {
				t.Errorf("ParseTarget(%q) = kind %q shown %q, want %q %q", tc.raw, got.Kind, got.String(), tc.kind, tc.shown)
			}
		})
	}
}

// Redacted hides a password wherever a DSN holds one, even in a DSN too malformed to parse,
// and leaves the rest as written.
func TestRedacted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, raw, want string }{
		{"user information", "mysql://u:s3cret@h:3306/db", "mysql://u:xxxxx@h:3306/db"},
		{"password parameter", "mysql://u@h/?tls=true&password=s3cret", "mysql://u@h/?tls=true&password=xxxxx"},
		{"passwd parameter, any case", "mysql://u@h/?PassWd=s3cret", "mysql://u@h/?PassWd=xxxxx"},
		{"both", "mysql://u:s3cret@h/?password=s3cret", "mysql://u:xxxxx@h/?password=xxxxx"},
		{"parameters kept in order and as written", "mysql://u@h/?z=1&password=s3cret&a=%2F", "mysql://u@h/?z=1&password=xxxxx&a=%2F"},
		{"escaped parameter name", "mysql://u@h/?pass%77ord=s3cret", "mysql://u@h/?pass%77ord=xxxxx"},
		{"bad escape in the value", "mysql://u@h/?password=s3cret%zz", "mysql://u@h/?password=xxxxx"},
		{"semicolon in the value", "mysql://u@h/?password=s3c;ret", "mysql://u@h/?password=xxxxx"},
		{"slash in the password", "mysql://u:s3/cret@h/", "mysql://u:xxxxx@h/"},
		{"question mark in the password", "mysql://u:s3?cret@h/", "mysql://u:xxxxx@h/"},
		{"hash in the password", "mysql://u:s3#cret@h/", "mysql://u:xxxxx@h/"},
		{"at sign in the password", "mysql://u:s3@cret@h/", "mysql://u:xxxxx@h/"},
		{"no scheme", "u:s3cret@h", "u:xxxxx@h"},
		{"no password", "mysql://u@h/?tls=true", "mysql://u@h/?tls=true"},
		{"hash in a parameter's value", "mysql://u@h/?password=s3#cret&tls=true", "mysql://u@h/?password=xxxxx&tls=true"},
		{"question mark in the password and a parameter", "mysql://u:s3?cret@h/?password=s3?cret", "mysql://u:xxxxx@h/?password=xxxxx"},
		{"at sign after the host hides too much", "mysql://u:s3cret@h/?user=a@b", "mysql://u:xxxxx@b"},
		{"empty parameters", "mysql://u@h/?&&password&", "mysql://u@h/?&&password&"},
		// Messages: a DSN ends at a blank or a quote, and the words around it stay as they are.
		{"error message", "reading mysql://webload:s3cret@127.0.0.1:3306/: asking its version: Error 1045 (28000): Access denied for user 'webload'@'127.0.0.1' (using password: YES)",
			"reading mysql://webload:xxxxx@127.0.0.1:3306/: asking its version: Error 1045 (28000): Access denied for user 'webload'@'127.0.0.1' (using password: YES)"},
		{"quoted DSN with a parameter", `parsing database "mysql://u@h/?password=s3cret": no host`, `parsing database "mysql://u@h/?password=xxxxx": no host`},
		{"parameter after a blank", "mysql://u@h/ x?password=s3cret&tls=true", "mysql://u@h/ x?password=xxxxx&tls=true"},
		{"two DSNs", "mysql://a:s3cret@h/ and postgres://b:s3cret@h/db", "mysql://a:xxxxx@h/ and postgres://b:xxxxx@h/db"},
		{"no DSN", "error: user 'a'@'b' denied", "error: user 'a'@'b' denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Redacted(tc.raw); got != tc.want {
				t.Errorf("Redacted(%q) = %q, want %q", tc.raw, got, tc.want)
			}
		})
	}
}

// A driver's message of several lines (pgx's has one per try) is one line in a report or a
// warning, with the password hidden on every line.
func TestMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"dial tcp 127.0.0.1:1: connection refused", "dial tcp 127.0.0.1:1: connection refused"},
		{"failed to connect to `user=webload database=x`:\n\t127.0.0.1:5432 (127.0.0.1): tls error\n\t127.0.0.1:5432 (127.0.0.1): server error\n",
			"failed to connect to `user=webload database=x`:; 127.0.0.1:5432 (127.0.0.1): tls error; 127.0.0.1:5432 (127.0.0.1): server error"},
		{"reading postgres://u:hunter2@h/db:\n  refused", "reading postgres://u:xxxxx@h/db:; refused"},
	} {
		if got := Message(errors.New(tc.in)); got != tc.want {
			t.Errorf("Message(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
