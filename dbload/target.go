package dbload

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/webload/webload/urls"
)

// Target is a database named by --db: a DSN (mysql://user:pass@host:3306/,
// postgres://user:pass@host:5432/db) or the http(s) URL of a mysqld_exporter or
// postgres_exporter.
type Target struct {
	// Kind is KindMySQL or KindPostgres, or "" for an exporter, whose metrics say which.
	Kind string
	// URL is the DSN as given, password included: it is for connecting only, never to show.
	URL *url.URL
}

// ParseTarget reads a --db value. The error names what is wrong without the password.
func ParseTarget(raw string) (Target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Target{}, fmt.Errorf("parsing database %q: not a URL", Redacted(raw))
	}
	t := Target{URL: u}
	switch strings.ToLower(u.Scheme) {
	case "mysql", "mariadb":
		t.Kind = KindMySQL
	case "postgres", "postgresql":
		t.Kind = KindPostgres
	case "http", "https":
	default:
		return Target{}, fmt.Errorf("parsing database %q: want mysql://user:pass@host:port/, postgres://user:pass@host:port/db or an exporter's http(s) URL", Redacted(raw))
	}
	if u.Host == "" && u.Query().Get("socket") == "" && u.Query().Get("host") == "" {
		return Target{}, fmt.Errorf("parsing database %q: no host", Redacted(raw))
	}
	return t, nil
}

// String is the DSN with its password hidden, for reports, logs and messages.
func (t Target) String() string {
	return Redacted(t.URL.String())
}

// Redacted hides the password of a DSN, in its user information and in a password=
// parameter, so that a DSN reaches no output with it.
func Redacted(raw string) string {
	out := urls.Redacted(raw)
	u, err := url.Parse(out)
	if err != nil || u.RawQuery == "" {
		return out
	}
	q := u.Query()
	changed := false
	for k := range q {
		if strings.EqualFold(k, "password") || strings.EqualFold(k, "passwd") {
			q.Set(k, "xxxxx")
			changed = true
		}
	}
	if !changed {
		return out
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Open returns the Source for t. It does not connect: the first Sample does, so that a
// database that is down costs a warning, not a failed run.
func Open(t Target) (Source, error) {
	switch t.Kind {
	case KindMySQL:
		return newMySQL(t)
	case KindPostgres:
		return newPostgres(t)
	default:
		return newExporter(t)
	}
}
