package siegerc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/webload/webload/urls"
)

// keyCheck returns how the value of a siege key is checked and put into its flag's syntax;
// known is false for keys siege does not have, which are variables. The values of time,
// delay and timeout pass unchanged here: their syntax is the flags', checked by
// Options.Check.
func keyCheck(key string) (check func(string) (string, error), known bool) {
	switch key {
	case "concurrent":
		return count(1), true
	case "failures":
		return count(0), true
	case "reps":
		return func(v string) (string, error) {
			if strings.EqualFold(v, "once") {
				return "once", nil
			}
			return count(1)(v)
		}, true
	case "connection":
		return func(v string) (string, error) {
			if l := strings.ToLower(v); l == "keep-alive" || l == "close" {
				return l, nil
			}
			return "", fmt.Errorf("want keep-alive or close (got %q)", v)
		}, true
	case "verbose", "quiet", "json_output", "benchmark", "internet", "parser", "follow-location", "logging":
		return boolean, true
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
		return credentials, true
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
	case "time", "delay", "timeout",
		"file", "logfile", "user-agent", "accept-encoding", "password", "ssl-cert", "ssl-key":
		return func(v string) (string, error) { return v, nil }, true
	}
	if unsupported(key) {
		return func(v string) (string, error) { return v, nil }, true // not checked: not used
	}
	return nil, false
}

// unsupported lists siege's keys that webload does not implement.
func unsupported(key string) bool {
	switch key {
	case "protocol", "chunked", "cache", "zero-data-ok", "url-escaping", "color", "csv", "timestamp",
		"fullurl", "display-id", "debug", "show-logfile", "limit", "nofollow", "expire-session",
		"unique", "gmethod", "spinner", "attempts", "ftp-login", "cookies", "ssl-timeout",
		"ssl-ciphers", "auth-url", "url":
		return true
	}
	return false
}

// asWebload reports whether an unsupported key holds what webload does anyway, which needs
// no warning: the shipped siegerc sets protocol = HTTP/1.1 and chunked = true, for instance.
func asWebload(key, value string) bool {
	b, _ := boolean(value)
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
	case "ssl-timeout": // TLS sessions are kept and resumed for the whole run
		n, err := strconv.Atoi(value)
		return err == nil && n > 0
	}
	return false
}

// count checks a whole number from least.
func count(least int) func(string) (string, error) {
	return func(v string) (string, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < least {
			return "", fmt.Errorf("want a whole number from %d (got %q)", least, v)
		}
		return strconv.Itoa(n), nil
	}
}

// boolean reads siege's true/false and the on/off, yes/no that users write too.
func boolean(v string) (string, error) {
	switch strings.ToLower(v) {
	case "true", "on", "yes":
		return "true", nil
	case "false", "off", "no":
		return "false", nil
	}
	return "", fmt.Errorf("want true or false, on or off, yes or no (got %q)", v)
}

// credentials reads siege's "user:password[:realm]"; the realm is dropped because webload
// sends the credentials to every host of the run. The error hides the password.
func credentials(v string) (string, error) {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) < 2 || parts[0] == "" {
		shown := urls.Redacted(v)
		if name, _, ok := strings.Cut(v, ":"); ok {
			shown = name + ":***"
		}
		return "", fmt.Errorf("want user:password[:realm] (got %q)", shown)
	}
	return parts[0] + ":" + parts[1], nil
}
