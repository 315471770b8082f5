package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// siegeSetting is one key of a siegerc file that webload uses, as the run flag it sets.
type siegeSetting struct {
	Flag  string // the run flag's name, e.g. "concurrent", "timeout", "header"
	Value string // the value in the flag's own syntax
	Line  int    // the line that set it; for a setting made of several keys, the last of them
}

// maxRCLine bounds one siegerc line; siege's longest real lines are login-url POST bodies.
const maxRCLine = 1 << 20

// rcBlanks are what siege's isspace() trims around lines and separates keys with.
const rcBlanks = " \t\r\n\v\f"

// readSiegerc reads a siegerc file the way siege's load_conf does and maps each key webload
// supports to a run flag; variables fall back to the process environment.
//
// Grammar (siege's): "key = value", "key: value" or "key value"; keys are case-insensitive;
// a '#' anywhere ends the line, except on lines starting with "login" (passwords and POST
// bodies may hold '#'); values are not unquoted. A key siege does not know defines a variable
// that later lines use as $(NAME), ${NAME} or $NAME; then the environment is tried. Unlike
// siege, an undefined variable is an error (siege substitutes "" silently), \$ is a literal
// '$', and on/off and yes/no are booleans too (siege reads anything but "true..." as false).
// An empty value ("key =") leaves that setting at webload's default.
//
// A single-valued key set twice keeps its last value; header and login-url keep every line.
// ignored lists, once each in file order, the keys that change nothing in webload: siege keys
// webload does not implement (unless they hold what webload does anyway, such as
// protocol = HTTP/1.1) and variables no line uses. A bad line is an error "FILE:LINE: problem".
func readSiegerc(path string, env lookupEnv) (settings []siegeSetting, ignored []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("siegerc: %w", err)
	}
	defer f.Close()
	return parseSiegerc(f, path, env)
}

// applySiegerc reads the siegerc named by -R or the SIEGERC variable, if any, and sets the
// flags it holds that the command line did not set (headers and logins add to the command
// line's). It warns once about keys webload ignores and returns the settings applied, for -C.
// A siegerc is read only when asked for, so a siege.conf at home never changes webload's runs.
func applySiegerc(c *cli.Context, env lookupEnv, stderr io.Writer) ([]siegeSetting, error) {
	path := c.String("rc")
	if path == "" {
		path, _ = env("SIEGERC")
	}
	if path == "" {
		return nil, nil
	}
	settings, ignored, err := readSiegerc(path, env)
	if err != nil {
		return nil, usageError{err}
	}
	if len(ignored) > 0 {
		fmt.Fprintf(stderr, "webload: %s: ignoring keys webload does not use: %s\n", path, strings.Join(ignored, ", "))
	}
	var applied []siegeSetting
	for _, s := range settings {
		if c.IsSet(s.Flag) && s.Flag != "header" && s.Flag != "login" {
			continue // the command line wins
		}
		if s.Flag == "file" && c.Args().Present() {
			// As in siege, a URL on the command line replaces the siegerc's URL file rather
			// than conflicting with it.
			continue
		}
		if err := c.Set(s.Flag, s.Value); err != nil {
			return nil, usagef("%s:%d: %s: %w", path, s.Line, s.Flag, err)
		}
		applied = append(applied, s)
	}
	return applied, nil
}

// parseSiegerc is readSiegerc on any reader; name prefixes errors and env resolves the
// variables the file does not define (nil: none).
func parseSiegerc(r io.Reader, name string, env lookupEnv) ([]siegeSetting, []string, error) {
	rc := rcReader{env: env, vals: map[string]rcValue{}, first: map[string]int{},
		vars: map[string]string{}, used: map[string]bool{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), maxRCLine)
	n := 0
	for sc.Scan() {
		n++
		if err := rc.line(sc.Text(), n); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, n+1, maxRCLine)
		}
		return nil, nil, fmt.Errorf("siegerc: read %s: %w", name, err)
	}
	settings, ignored := rc.result()
	return settings, ignored, nil
}

// rcValue is a key's value, already checked and in its flag's syntax, and where it was set.
type rcValue struct {
	value string
	line  int
}

// rcReader accumulates one file. Values are kept per key until the end because several
// settings are made of several keys (logging and logfile, proxy-host and proxy-port...).
type rcReader struct {
	env      lookupEnv
	vals     map[string]rcValue // last value of each siege key, by lower-case name
	first    map[string]int     // first line of each key and variable, to list ignored ones in order
	repeated []siegeSetting     // header and login-url lines, in file order
	vars     map[string]string  // unknown keys: siege's variables
	used     map[string]bool    // variables some line referred to
}

// line reads line n. Like siege, it splits the key off before expanding variables, so a value
// can never turn into a second key.
func (rc *rcReader) line(text string, n int) error {
	if n == 1 {
		text = strings.TrimPrefix(text, "\ufeff")
	}
	text = strings.Trim(text, rcBlanks)
	if !strings.HasPrefix(text, "login") {
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = strings.Trim(text[:i], rcBlanks)
		}
	}
	if text == "" {
		return nil
	}
	end := strings.IndexAny(text, rcBlanks+"=:")
	if end < 0 {
		end = len(text)
	}
	key, err := rc.expand(text[:end])
	if err != nil {
		return err
	}
	value, err := rc.expand(strings.TrimLeft(text[end:], rcBlanks+"=:"))
	if err != nil {
		return err
	}
	if key == "" {
		return fmt.Errorf("missing setting name before %q", text)
	}
	lower := strings.ToLower(key)
	check, known := rcCheck(lower)
	switch {
	case !known:
		rc.vars[key] = value
		rc.mark(key, n)
	case lower == "header" || lower == "login-url":
		flag := "header"
		if lower == "login-url" {
			flag = "login"
		}
		v, err := check(value)
		if err != nil {
			return fmt.Errorf("%s: %w", lower, err)
		}
		rc.repeated = append(rc.repeated, siegeSetting{Flag: flag, Value: v, Line: n})
	default:
		if value != "" {
			if value, err = check(value); err != nil {
				return fmt.Errorf("%s: %w", lower, err)
			}
		}
		rc.vals[lower] = rcValue{value, n}
		rc.mark(lower, n)
	}
	return nil
}

// mark remembers where a key first appeared, which orders the ignored keys.
func (rc *rcReader) mark(key string, n int) {
	if _, seen := rc.first[key]; !seen {
		rc.first[key] = n
	}
}

// expand replaces $(NAME), ${NAME} and $NAME (NAME of letters, digits and '_'; the bracketed
// forms take any name, since siegerc keys have '-') with the variable's value, and \$ with '$'.
// A '$' that starts no reference is kept. Values are stored expanded, so one pass is enough.
func (rc *rcReader) expand(s string) (string, error) {
	if !strings.ContainsRune(s, '$') {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		var next byte
		if i+1 < len(s) {
			next = s[i+1]
		}
		var name string
		switch {
		case s[i] == '\\' && next == '$':
			b.WriteByte('$')
			i += 2
			continue
		case s[i] == '$' && (next == '(' || next == '{'):
			closer := byte(')')
			if next == '{' {
				closer = '}'
			}
			end := strings.IndexByte(s[i+2:], closer)
			if end < 0 {
				return "", fmt.Errorf("unterminated %q: missing %q", s[i:i+2], closer)
			}
			name = s[i+2 : i+2+end]
			i += end + 3
		case s[i] == '$' && isNameByte(next):
			j := i + 1
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			name, i = s[i+1:j], j
		default:
			b.WriteByte(s[i])
			i++
			continue
		}
		v, ok := rc.vars[name]
		if ok {
			rc.used[name] = true
		} else if rc.env != nil {
			v, ok = rc.env(name)
		}
		if !ok {
			return "", fmt.Errorf("undefined variable %q (define it on an earlier line or in the environment)", name)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// rcCheck returns how the value of a siege key is checked and put into its flag's syntax;
// known is false for keys siege does not have, which are variables.
func rcCheck(key string) (check func(string) (string, error), known bool) {
	switch key {
	case "concurrent":
		return rcCount(1), true
	case "failures":
		return rcCount(0), true
	case "reps":
		return func(v string) (string, error) {
			if strings.EqualFold(v, "once") {
				return "once", nil
			}
			return rcCount(1)(v)
		}, true
	case "time":
		return func(v string) (string, error) { _, err := parseRunTime(v); return v, err }, true
	case "delay", "timeout":
		return func(v string) (string, error) {
			d, err := parseSeconds(v)
			if err == nil && d == 0 && key == "timeout" {
				err = fmt.Errorf("want more than 0 seconds (got %q)", v)
			}
			return v, err
		}, true
	case "connection":
		return func(v string) (string, error) {
			if l := strings.ToLower(v); l == "keep-alive" || l == "close" {
				return l, nil
			}
			return "", fmt.Errorf("want keep-alive or close (got %q)", v)
		}, true
	case "verbose", "quiet", "json_output", "benchmark", "internet", "parser", "follow-location", "logging":
		return rcBool, true
	case "header":
		return func(v string) (string, error) {
			if name, _, ok := strings.Cut(v, ":"); !ok || strings.TrimSpace(name) == "" {
				return "", fmt.Errorf("want \"Name: value\" (got %q)", v)
			}
			return v, nil
		}, true
	case "login-url":
		// The login flag reads a URL-file line, which expands '$' again: keep ours literal.
		return func(v string) (string, error) {
			if v == "" {
				return "", errors.New("missing URL")
			}
			return strings.ReplaceAll(v, "$", `\$`), nil
		}, true
	case "login", "proxy-login":
		return rcCredentials, true
	case "username":
		return func(v string) (string, error) {
			if strings.Contains(v, ":") {
				return "", fmt.Errorf("a user name cannot hold ':' (got %q)", v)
			}
			return v, nil
		}, true
	case "proxy-host":
		return func(v string) (string, error) {
			v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
			if strings.ContainsAny(v, "/@ \t") {
				return "", fmt.Errorf("want a host name such as proxy.example.com (got %q)", v)
			}
			return v, nil
		}, true
	case "proxy-port":
		return func(v string) (string, error) {
			if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 65535 {
				return "", fmt.Errorf("want a port from 1 to 65535 (got %q)", v)
			}
			return v, nil
		}, true
	case "file", "logfile", "user-agent", "accept-encoding", "password", "ssl-cert", "ssl-key":
		return func(v string) (string, error) { return v, nil }, true
	}
	if rcUnsupported(key) {
		return func(v string) (string, error) { return v, nil }, true // not checked: not used
	}
	return nil, false
}

// rcUnsupported lists siege's keys that webload does not implement.
func rcUnsupported(key string) bool {
	switch key {
	case "protocol", "chunked", "cache", "zero-data-ok", "url-escaping", "color", "csv", "timestamp",
		"fullurl", "display-id", "debug", "show-logfile", "limit", "nofollow", "expire-session",
		"unique", "gmethod", "spinner", "attempts", "ftp-login", "cookies", "ssl-timeout",
		"ssl-ciphers", "auth-url", "url":
		return true
	}
	return false
}

// rcAsWebload reports whether an unsupported key holds what webload does anyway, which needs
// no warning: the shipped siegerc sets protocol = HTTP/1.1 and chunked = true, for instance.
func rcAsWebload(key, value string) bool {
	b, _ := rcBool(value)
	switch key {
	case "protocol":
		return strings.HasPrefix(strings.ToUpper(value), "HTTP/1.1")
	case "chunked": // bodies are always de-chunked
		return b == "true"
	case "zero-data-ok": // an empty body is not a failure
		return b == "true"
	case "url-escaping": // URL lines are always escaped
		return b == "true"
	case "cache": // nothing is cached
		return b == "false"
	}
	return false
}

func rcCount(least int) func(string) (string, error) {
	return func(v string) (string, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < least {
			return "", fmt.Errorf("want a whole number from %d (got %q)", least, v)
		}
		return strconv.Itoa(n), nil
	}
}

func rcBool(v string) (string, error) {
	switch strings.ToLower(v) {
	case "true", "on", "yes":
		return "true", nil
	case "false", "off", "no":
		return "false", nil
	}
	return "", fmt.Errorf("want true or false, on or off, yes or no (got %q)", v)
}

// rcCredentials reads siege's "user:password[:realm]"; the realm is dropped because webload
// sends the credentials to every host of the run.
func rcCredentials(v string) (string, error) {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) < 2 || parts[0] == "" {
		return "", fmt.Errorf("want user:password[:realm] (got %q)", redactSecret("user", v))
	}
	return parts[0] + ":" + parts[1], nil
}

// result turns the keys read into settings ordered by line, and the ignored keys.
func (rc *rcReader) result() ([]siegeSetting, []string) {
	var out []siegeSetting
	var ignored []string
	add := func(flag, value string, lines ...int) {
		out = append(out, siegeSetting{Flag: flag, Value: value, Line: slices.Max(lines)})
	}
	get := func(key string) (string, int) { v := rc.vals[key]; return v.value, v.line }
	// The keys that set one flag each, as they are.
	direct := [...]struct{ key, flag string }{
		{"concurrent", "concurrent"}, {"reps", "reps"}, {"time", "time"}, {"delay", "delay"},
		{"timeout", "timeout"}, {"benchmark", "benchmark"}, {"internet", "internet"}, {"file", "file"},
		{"verbose", "verbose"}, {"quiet", "quiet"}, {"json_output", "json-output"},
		{"failures", "failures"}, {"connection", "connection"}, {"user-agent", "user-agent"},
		{"accept-encoding", "accept-encoding"}, {"ssl-cert", "cert"},
	}
	for _, d := range direct {
		if v, n := get(d.key); v != "" {
			add(d.flag, v, n)
		}
	}
	// siege's switches that are on by default; webload has a flag for each direction.
	for _, k := range [...]struct{ key, on, off string }{
		{"parser", "parser", "no-parser"}, {"follow-location", "follow", "no-follow"},
	} {
		if v, n := get(k.key); v == "true" {
			add(k.on, "true", n)
		} else if v == "false" {
			add(k.off, "true", n)
		}
	}
	if on, n := get("logging"); on == "true" {
		if file, m := get("logfile"); file != "" {
			add("log", file, n, m)
		} else {
			ignored = append(ignored, "logging") // siege's default log path is the machine's, not ours
		}
	}
	user, userLine := get("login")
	name, n := get("username")
	pass, m := get("password")
	switch {
	case name != "" && pass != "" && max(n, m) > userLine:
		user, userLine = name+":"+pass, max(n, m)
	case name != "" && pass == "":
		ignored = append(ignored, "username")
	case pass != "" && name == "":
		ignored = append(ignored, "password")
	}
	if user != "" {
		add("user", user, userLine)
	}
	if host, n := get("proxy-host"); host != "" {
		port, m := get("proxy-port")
		if port == "" {
			port = "3128" // siege's default
		}
		u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, port)}
		login, l := get("proxy-login")
		if name, pass, ok := strings.Cut(login, ":"); ok {
			u.User = url.UserPassword(name, pass)
		}
		add("proxy", u.String(), n, m, l)
	}
	cert, n := get("ssl-cert")
	if key, m := get("ssl-key"); key != "" && cert != "" {
		add("key", key, m)
	} else if cert != "" {
		add("key", cert, n) // siege reads the key from the certificate file unless told otherwise
	} else if key != "" {
		ignored = append(ignored, "ssl-key")
	}
	for key, v := range rc.vals {
		if rcUnsupported(key) && !rcAsWebload(key, v.value) {
			ignored = append(ignored, key)
		}
	}
	for name := range rc.vars {
		if !rc.used[name] {
			ignored = append(ignored, name)
		}
	}
	out = append(out, rc.repeated...)
	slices.SortStableFunc(out, func(a, b siegeSetting) int { return a.Line - b.Line })
	slices.SortFunc(ignored, func(a, b string) int { return rc.first[a] - rc.first[b] })
	return out, ignored
}
