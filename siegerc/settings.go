package siegerc

import (
	"net"
	"net/url"
	"slices"
	"strings"
)

// result turns the keys read into settings ordered by line, and the ignored keys.
func (rc *reader) result() ([]Setting, []string) {
	var out []Setting
	var ignored []string
	add := func(flag, value string, lines ...int) {
		out = append(out, Setting{Flag: flag, Value: value, Line: slices.Max(lines)})
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
		if unsupported(key) && !asWebload(key, v.value) {
			ignored = append(ignored, key)
		}
	}
	for name := range rc.vars {
		if !rc.used[name] {
			ignored = append(ignored, name)
		}
	}
	out = append(out, rc.repeated...)
	slices.SortStableFunc(out, func(a, b Setting) int { return a.Line - b.Line })
	slices.SortFunc(ignored, func(a, b string) int { return rc.first[a] - rc.first[b] })
	return out, ignored
}
