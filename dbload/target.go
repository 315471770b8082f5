package dbload

import (
	"fmt"
	"net/url"
	"strings"
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

// Redacted hides the password of a DSN, in its user information and in a password= (or
// passwd=) parameter, so that a DSN reaches no output with it. It works on the text as
// written, not on a parse, so that a DSN too malformed to parse (the one an error message
// quotes) is hidden too, and the rest keeps its order and escapes. Where a password's own
// characters ('/', '?', '#', '&', '@') make the text ambiguous, it hides too much rather
// than too little.
func Redacted(raw string) string {
	return redactUserinfo(redactParams(raw))
}

// redactParams hides the values of password parameters. A value runs to the next '&', so
// that one holding a '?', '#' or ';' is hidden whole; a name starts after the last '?', so
// that one behind a '?' of a password in the user information is found too.
func redactParams(raw string) string {
	q := strings.IndexByte(raw, '?')
	if q < 0 {
		return raw
	}
	pairs := strings.Split(raw[q+1:], "&")
	for i, pair := range pairs {
		eq := strings.IndexByte(pair, '=')
		if eq < 0 {
			continue
		}
		key := pair[strings.LastIndexByte(pair[:eq], '?')+1 : eq]
		if k, err := url.QueryUnescape(key); err == nil {
			key = k
		}
		if strings.EqualFold(key, "password") || strings.EqualFold(key, "passwd") {
			pairs[i] = pair[:eq] + "=xxxxx"
		}
	}
	return raw[:q+1] + strings.Join(pairs, "&")
}

// redactUserinfo hides the password of the user information: from the first ':' after the
// scheme to the last '@', whatever the password holds between them.
func redactUserinfo(raw string) string {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + 3
	}
	at := strings.LastIndexByte(raw[start:], '@')
	if at < 0 {
		return raw
	}
	colon := strings.IndexByte(raw[start:start+at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:start+colon] + ":xxxxx" + raw[start+at:]
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
