package dbsite

import (
	"database/sql"
	"fmt"
	"net/url"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// defaultDatabase is the database a mysql:// DSN without one uses, the one internal/dbtest
// creates.
const defaultDatabase = "webload"

// ApplicationName names the site's sessions on PostgreSQL (pg_stat_activity.application_name).
const ApplicationName = "dbsite"

// openDB opens a pool on the database dsn names, in --db's form (mysql://user:pass@host:port/db
// or postgres://user:pass@host:port/db). It returns the pool and a function that rewrites a
// statement's ? placeholders for the kind of database.
//
// Each statement reaches the server as one plain query, so that the server's own counters
// count one per statement the site runs: MySQL's Questions would otherwise count the prepare
// and execute steps of a server-side prepared statement, and PostgreSQL would count a
// transaction for each statement pgx prepares.
func openDB(dsn string) (*sql.DB, func(string) string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing the site's database DSN: %w", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "mysql", "mariadb":
		cfg := mysql.NewConfig()
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
		cfg.Net, cfg.Addr = "tcp", u.Host
		cfg.DBName = strings.TrimPrefix(u.Path, "/")
		if cfg.DBName == "" {
			cfg.DBName = defaultDatabase
		}
		cfg.InterpolateParams = true
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			return nil, nil, fmt.Errorf("configuring the site's MySQL connection: %w", err)
		}
		return sql.OpenDB(conn), func(q string) string { return q }, nil
	case "postgres", "postgresql":
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, nil, fmt.Errorf("configuring the site's PostgreSQL connection: %w", err)
		}
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
		cfg.RuntimeParams["application_name"] = ApplicationName
		return stdlib.OpenDB(*cfg), dollarPlaceholders, nil
	}
	return nil, nil, fmt.Errorf("the site's database DSN: want mysql:// or postgres://, got %q", u.Scheme)
}

// dollarPlaceholders numbers a statement's ? placeholders $1, $2… as PostgreSQL wants them.
// The site's statements hold no ? in literals.
func dollarPlaceholders(q string) string {
	var b strings.Builder
	n := 0
	for i := range len(q) {
		if q[i] == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}
