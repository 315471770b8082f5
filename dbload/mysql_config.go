package dbload

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// mysqlTimeout bounds connecting and each read and write on the reader's connection, so that
// a database that stops answering costs a failed reading, not a stuck run.
const mysqlTimeout = 5 * time.Second

// mysqlDefaultPort is the port of a DSN that names none.
const mysqlDefaultPort = "3306"

// mysqlTLS are the tls= values passed through to the driver; any other would name a TLS
// configuration registered in the driver's process-wide table, which webload never fills.
var mysqlTLS = map[string]bool{"true": true, "false": true, "skip-verify": true, "preferred": true}

// mysqlConfig turns a mysql:// Target into the driver's configuration. The fields are set one
// by one rather than through a DSN string, so that no password needs escaping into one and
// none of the driver's connection parameters (which it would send as SET statements, counted
// as the site's queries) can slip in. Known parameters: socket (a Unix socket path, in place
// of host:port), tls (true, false, skip-verify, preferred), password (when the user
// information has none) and user.
func mysqlConfig(t Target) (*mysql.Config, error) {
	u := t.URL
	if u == nil {
		return nil, fmt.Errorf("reading mysql: no DSN")
	}
	cfg := mysql.NewConfig()
	cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = mysqlTimeout, mysqlTimeout, mysqlTimeout
	// The driver logs dropped connections to stderr by itself; the reader returns them as
	// errors instead, which the Monitor counts.
	cfg.Logger = &mysql.NopLogger{}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	db, err := url.PathUnescape(strings.TrimPrefix(u.EscapedPath(), "/"))
	if err != nil || strings.Contains(db, "/") {
		return nil, fmt.Errorf("reading %s: the path must be a database name or empty", t)
	}
	cfg.DBName = db
	cfg.Net, cfg.Addr = "tcp", u.Host
	if u.Port() == "" && u.Hostname() != "" {
		cfg.Addr = net.JoinHostPort(u.Hostname(), mysqlDefaultPort)
	}
	for key, values := range u.Query() {
		v := values[len(values)-1]
		switch strings.ToLower(key) {
		case "socket":
			cfg.Net, cfg.Addr = "unix", v
		case "tls":
			if !mysqlTLS[strings.ToLower(v)] {
				return nil, fmt.Errorf("reading %s: tls=%q: want true, false, skip-verify or preferred", t, v)
			}
			cfg.TLSConfig = strings.ToLower(v)
		case "password", "passwd":
			if cfg.Passwd == "" {
				cfg.Passwd = v
			}
		case "user":
			if cfg.User == "" {
				cfg.User = v
			}
		default:
			return nil, fmt.Errorf("reading %s: unknown parameter %q (known: socket, tls, user, password)", t, key)
		}
	}
	if cfg.Passwd == "" {
		cfg.Passwd = t.Password
	}
	if cfg.Addr == "" {
		return nil, fmt.Errorf("reading %s: no host or socket", t)
	}
	return cfg, nil
}
