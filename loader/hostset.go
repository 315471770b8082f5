package loader

import (
	"net"
	"net/url"
	"strings"
)

// hostSet is a set of hosts that redirects and resources may go to. An entry with a port
// matches that host and port; one without matches the host on any port.
type hostSet struct {
	exact map[string]bool // host:port, lowercased, with the scheme's default port filled in
	any   map[string]bool // host names, lowercased
}

func newHostSet() hostSet {
	return hostSet{exact: map[string]bool{}, any: map[string]bool{}}
}

// addURL adds the host and port of u.
func (s hostSet) addURL(u *url.URL) { s.exact[hostKey(u)] = true }

// addName adds "host" (any port) or "host:port".
func (s hostSet) addName(name string) {
	name = strings.ToLower(strings.TrimSpace(name))
	if host, port, err := net.SplitHostPort(name); err == nil {
		s.exact[net.JoinHostPort(host, port)] = true
		return
	}
	s.any[strings.Trim(name, "[]")] = true
}

func (s hostSet) has(u *url.URL) bool {
	return s.exact[hostKey(u)] || s.any[strings.ToLower(u.Hostname())]
}

// sameHost tells whether a and b name the same host and port.
func sameHost(a, b *url.URL) bool { return hostKey(a) == hostKey(b) }

// hostKey is u's lowercased host:port, with the scheme's default port when none is written.
func hostKey(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
