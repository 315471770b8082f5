package dbload

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
)

// PasswordFileParam is the DSN parameter naming a file that holds the password alone
// (postgres://app@db/shop?password_file=/run/secrets/db), as the official PostgreSQL and
// MariaDB images' *_PASSWORD_FILE variables do: a password in argv is readable by any local
// user with ps. It is read once, when the DSN is parsed, and taken off the DSN the drivers see.
const PasswordFileParam = "password_file"

// passwordEnv names the variable each kind's own client reads the password from when the DSN
// has none: PGPASSWORD for psql, MYSQL_PWD for mysql and mariadb.
var passwordEnv = map[string]string{KindPostgres: "PGPASSWORD", KindMySQL: "MYSQL_PWD"}

// resolvePassword fills t.Password when t's DSN holds none: from the password file the DSN
// names (taken off t.URL), else from the kind's variable in env (nil means none).
func (t *Target) resolvePassword(env func(string) (string, bool)) error {
	file, rest, found := cutParam(t.URL.RawQuery, PasswordFileParam)
	if found {
		t.URL.RawQuery = rest
	}
	if dsnPassword(t.URL) != "" {
		if found {
			return fmt.Errorf("parsing database %q: both a password and %s", t, PasswordFileParam)
		}
		return nil
	}
	if found {
		pw, err := readPasswordFile(file)
		if err != nil {
			return err
		}
		t.Password = pw
		return nil
	}
	if name := passwordEnv[t.Kind]; name != "" && env != nil {
		if pw, ok := env(name); ok {
			t.Password = pw
		}
	}
	return nil
}

// readPasswordFile reads a password file: a regular file (not a pipe a read would wait on, nor
// a folder), its one trailing newline stripped. The error names the file once.
func readPasswordFile(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("%s: no file named", PasswordFileParam)
	}
	fi, err := os.Stat(path)
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	var b []byte
	if err == nil {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("reading the password file %s: %w", path, err)
	}
	pw := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if pw == "" {
		return "", fmt.Errorf("reading the password file %s: it is empty", path)
	}
	return pw, nil
}

// cutParam takes parameter name off a raw query, keeping the others in their order and
// escapes, and returns its (unescaped, last) value.
func cutParam(raw, name string) (value, rest string, found bool) {
	var kept []string
	for _, pair := range strings.Split(raw, "&") {
		k, v, _ := strings.Cut(pair, "=")
		if uk, err := url.QueryUnescape(k); err == nil && strings.EqualFold(uk, name) {
			if uv, err := url.QueryUnescape(v); err == nil {
				value = uv
			} else {
				value = v
			}
			found = true
			continue
		}
		kept = append(kept, pair)
	}
	if !found {
		return "", raw, false
	}
	return value, strings.Join(kept, "&"), true
}

// dsnPassword is the password a DSN holds, in its user information or a password parameter.
func dsnPassword(u *url.URL) string {
	if pw, ok := u.User.Password(); ok {
		return pw
	}
	q := u.Query()
	if pw := q.Get("password"); pw != "" {
		return pw
	}
	return q.Get("passwd")
}

// secretParam tells whether a DSN parameter carries a credential: its name says password or
// secret (password, passwd, sslpassword, client_secret). The password file's path is none.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	if n == PasswordFileParam {
		return false
	}
	return strings.Contains(n, "passw") || strings.Contains(n, "secret")
}

// Secrets lists the credentials of t: the password it connects with, and the values of its
// DSN's secret parameters (sslpassword=). They are for hiding wherever a page or a driver's
// message might print them.
func (t Target) Secrets() []string {
	var out []string
	if t.URL == nil {
		return nil
	}
	if pw, ok := t.URL.User.Password(); ok && pw != "" {
		out = append(out, pw)
	}
	for k, vs := range t.URL.Query() {
		if secretParam(k) {
			for _, v := range vs {
				if v != "" {
					out = append(out, v)
				}
			}
		}
	}
	if t.Password != "" {
		out = append(out, t.Password)
	}
	return out
}
