package dbload

import (
	"strconv"
	"strings"
	"testing"
)

// ParseTarget and the MySQL reader's configuration never panic on any --db value, and a
// password written into a DSN, in its user information or as a parameter, reaches neither
// Redacted (of the DSN or of a message quoting it), nor Target.String, nor an error.
func FuzzParseTarget(f *testing.F) {
	for _, seed := range [][2]string{
		{"127.0.0.1:3306/", "s3cret"},
		{"db.example/shop?tls=skip-verify", "p@ss/w?rd#1"},
		{"/?socket=/run/mysqld/mysqld.sock", "pa%zzss"},
		{"[::1]:3306/?password=other", "semi;colon&amp"},
		{"h:port/", "a:b@c"},
		{"", "only"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, rest, password string) {
		check(t, rest, "")
		if strings.ContainsAny(password, "xX") {
			// "xxxxx" replaces a password: one of its letters could be read as a leak.
			return
		}
		// A start that no message's own words hold, so that a short password is not
		// mistaken for a word of the message.
		password = "ZQJ" + password
		sep := "?"
		if strings.Contains(rest, "?") {
			sep = "&"
		}
		dsns := []string{"mysql://user:" + password + "@" + rest, "postgres://user:" + password + "@" + rest}
		if !strings.Contains(password, "&") {
			// A parameter's value ends at '&': past it, it is not the password any more.
			dsns = append(dsns, "mysql://user@"+rest+sep+"password="+password)
		}
		for _, dsn := range dsns {
			if strings.Count(dsn, password) == 1 && strings.Count(quoted(dsn), quoted(password)) == 1 {
				check(t, dsn, password)
			}
		}
	})
}

// check reads raw as a --db value and fails if password shows anywhere it is written back.
func check(t *testing.T, raw, password string) {
	t.Helper()
	shown := func(what, s, pw string) {
		if password != "" && strings.Contains(s, pw) {
			t.Fatalf("%s of %q shows the password %q: %q", what, raw, password, s)
		}
	}
	shown("redactDSN", redactDSN(raw), password)
	if !strings.ContainsAny(raw, dsnEnds) {
		// In a message, a DSN ends at a blank or a quote; within it, nothing shows.
		shown("Redacted", Redacted(raw), password)
		shown("Redacted message", Redacted(`reading "`+raw+`": failed`), password)
	}
	target, err := ParseTarget(raw)
	if err != nil {
		// The error quotes the DSN, escapes and all.
		shown("ParseTarget's error", err.Error(), quoted(password))
		return
	}
	shown("String", target.String(), password)
	if target.Kind != KindMySQL {
		return
	}
	if _, err := mysqlConfig(target); err != nil {
		shown("mysqlConfig's error", err.Error(), password)
	}
}

// quoted is s as %q writes it, less the quotes.
func quoted(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}
