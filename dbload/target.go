package dbload

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Target is a database named by --db: a DSN (mysql://user:pass@host:3306/,
// postgres://user:pass@host:5432/db) or the http(s) URL of a mysqld_exporter or
// postgres_exporter.
type Target struct {
	// Kind is KindMySQL or KindPostgres, or "" for an exporter, whose metrics say which.
	Kind string
	// URL is the DSN as given, password included: it is for connecting only, never to show.
	// A password_file parameter is taken off it (see PasswordFileParam).
	URL *url.URL
	// Password is the password to connect with when the DSN holds none: read from the DSN's
	// password file, or from the environment (PGPASSWORD, MYSQL_PWD). Never to show.
	Password string
}

// ParseTarget reads a --db value, with no environment to take a password from (see
// ParseTargetEnv). The error names what is wrong without the password.
func ParseTarget(raw string) (Target, error) {
	return ParseTargetEnv(raw, nil)
}

// ParseTargetEnv reads a --db value. A DSN without a password takes it from the file its
// password_file parameter names, else from env's PGPASSWORD (postgres) or MYSQL_PWD (mysql),
// the variables the databases' own clients read; env nil means none. The error names what is
// wrong without the password, a password file that cannot be read by its path.
func ParseTargetEnv(raw string, env func(string) (string, bool)) (Target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Target{}, fmt.Errorf("parsing database %q: not a URL", redactDSN(raw))
	}
	t := Target{URL: u}
	switch strings.ToLower(u.Scheme) {
	case "mysql", "mariadb":
		t.Kind = KindMySQL
	case "postgres", "postgresql":
		t.Kind = KindPostgres
	case "http", "https":
	default:
		return Target{}, fmt.Errorf("parsing database %q: want mysql://user:pass@host:port/, postgres://user:pass@host:port/db or an exporter's http(s) URL", redactDSN(raw))
	}
	if u.Host == "" && u.Query().Get("socket") == "" && u.Query().Get("host") == "" {
		return Target{}, fmt.Errorf("parsing database %q: no host", redactDSN(raw))
	}
	if err := t.resolvePassword(env); err != nil {
		return Target{}, err
	}
	// What the kind's reader would refuse (an unknown parameter, a bad sslmode) is bad input
	// like the rest, refused at start rather than warned of once the run is under way.
	if err := t.check(); err != nil {
		return Target{}, err
	}
	return t, nil
}

// check builds the reader's settings from the DSN, without connecting.
func (t Target) check() error {
	var err error
	switch t.Kind {
	case KindMySQL:
		_, err = mysqlConfig(t)
	case KindPostgres:
		_, err = newPostgres(t)
	}
	return err
}

// String is the DSN with its password hidden, for reports, logs and messages.
func (t Target) String() string {
	return redactDSN(t.URL.String())
}

// Redacted hides the passwords of the DSNs in a text, a DSN alone or a message that quotes
// some: in their user information and in the parameters whose name says password or secret
// (password=, passwd=, sslpassword=). In a message a
// DSN ends at a blank or a quote, which no valid URL holds, so the words around it stay as
// they are; a text that is one word is one DSN, scheme or not.
func Redacted(text string) string {
	if !strings.ContainsAny(text, dsnEnds) {
		return redactDSN(text)
	}
	var b strings.Builder
	for text != "" {
		word := strings.IndexAny(text, dsnEnds)
		if word < 0 {
			word = len(text)
		}
		if w := text[:word]; strings.Contains(w, "://") {
			b.WriteString(redactDSN(w))
		} else {
			b.WriteString(redactParams(w))
		}
		end := word
		for end < len(text) && strings.ContainsRune(dsnEnds, rune(text[end])) {
			end++
		}
		b.WriteString(text[word:end])
		text = text[end:]
	}
	return b.String()
}

// dsnEnds are the characters that end a DSN in a message.
const dsnEnds = " \t\r\n\"'`<>"

// redactDSN hides the password of one DSN, taken whole: it works on the text as written, not
// on a parse, so that a DSN too malformed to parse (the one an error message quotes) is
// hidden too, and the rest keeps its order and escapes. Where a password's own characters
// ('/', '?', '#', '&', '@', a blank) make the text ambiguous, it hides too much rather than
// too little.
func redactDSN(raw string) string {
	return hide(raw, append(paramSpans(raw), userinfoSpan(raw)...))
}

// redactParams hides the password parameters of a word that is not a whole DSN.
func redactParams(raw string) string {
	return hide(raw, paramSpans(raw))
}

// span is a part of a text to hide, from byte start to end.
type span struct{ start, end int }

// userinfoSpan finds the password of the user information: from the first ':' after the
// scheme to the last '@', whatever the password holds between them.
func userinfoSpan(raw string) []span {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + 3
	}
	at := strings.LastIndexByte(raw[start:], '@')
	if at < 0 {
		return nil
	}
	colon := strings.IndexByte(raw[start:start+at], ':')
	if colon < 0 {
		return nil
	}
	return []span{{start + colon + 1, start + at}}
}

// paramSpans finds the values of password parameters. A value runs to the next '&', so that
// one holding a '?', '#' or ';' is hidden whole; a name starts after the last '?', so that
// one behind a '?' of a password in the user information is found too.
func paramSpans(raw string) []span {
	q := strings.IndexByte(raw, '?')
	if q < 0 {
		return nil
	}
	var out []span
	for pos := q + 1; pos <= len(raw); {
		end := strings.IndexByte(raw[pos:], '&')
		if end < 0 {
			end = len(raw) - pos
		}
		pair := raw[pos : pos+end]
		if eq := strings.IndexByte(pair, '='); eq >= 0 {
			key := pair[strings.LastIndexByte(pair[:eq], '?')+1 : eq]
			if k, err := url.QueryUnescape(key); err == nil {
				key = k
			}
			if secretParam(key) {
				out = append(out, span{pos + eq + 1, pos + end})
			}
		}
		pos += end + 1
	}
	return out
}

// hide writes "xxxxx" in place of each span of raw, spans that overlap or touch as one.
func hide(raw string, spans []span) string {
	if len(spans) == 0 {
		return raw
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	done := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start <= cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		b.WriteString(raw[done:cur.start])
		b.WriteString("xxxxx")
		done = cur.end
	}
	b.WriteString(raw[done:])
	return b.String()
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

// Message is an error's text for a report or a warning: its password hidden, and on one line,
// the lines joined with "; ". A driver's message may have a line per address or per try
// (pgx's does), and a report's line or a warning is one line.
func Message(err error) string {
	var parts []string
	for _, l := range strings.Split(Redacted(err.Error()), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}
