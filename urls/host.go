package urls

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// HostPattern is a host, with or without a port, that URLs are matched against. webload has
// one rule for every place that asks "is this URL on that host?": the hosts redirects may go
// to, the hosts page resources are fetched from (Config.ResourceHosts), the host whose secret
// headers a request may carry, and the host filter of an import. The rule:
//
//   - Host names compare without regard to case and in their ASCII form: a name in another
//     script is turned into punycode first, so "Bücher.example" and "xn--bcher-kva.example" are
//     one host.
//   - A trailing dot is dropped: "example.com." is "example.com".
//   - An IPv6 address is written in brackets, "[::1]" or "[::1]:8080"; a bare "::1" is accepted
//     as the address alone.
//   - A pattern without a port matches its host on any port. A pattern with a port matches that
//     port only, where a URL without a port is on its scheme's default port: 80 for http, 443
//     for https. So "example.com:443" matches https://example.com/ and http://example.com:443/.
//
// The zero value matches nothing.
type HostPattern struct {
	host string // canonical: see canonicalHost
	port string // "" matches any port
}

// ParseHostPattern reads "host" or "host:port" (IPv6 in brackets) by the rule of HostPattern.
func ParseHostPattern(s string) (HostPattern, error) {
	if strings.Contains(s, "/") {
		// Most often a URL given where a host was meant; its scheme would read as a host.
		return HostPattern{}, fmt.Errorf("bad host %q: want a host name such as example.com, or host:port, not a URL", s)
	}
	host, port := splitHostPort(strings.TrimSpace(s))
	if host == "" || strings.ContainsAny(host, "/@ \t[]") {
		return HostPattern{}, fmt.Errorf("bad host %q: want a host name such as example.com, or host:port", s)
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return HostPattern{}, fmt.Errorf("bad host %q: want a port from 1 to 65535", s)
		}
	} else if strings.HasSuffix(s, ":") {
		return HostPattern{}, fmt.Errorf("bad host %q: missing port after ':'", s)
	}
	return HostPattern{host: canonicalHost(host), port: port}, nil
}

// Match tells whether a URL of scheme with authority hostport ("host", "host:port",
// "[v6]:port", without user info) is on the pattern's host.
func (p HostPattern) Match(scheme, hostport string) bool {
	if p.host == "" {
		return false
	}
	host, port := splitHostPort(hostport)
	if canonicalHost(host) != p.host {
		return false
	}
	return p.port == "" || p.port == effectivePort(scheme, port)
}

// MatchURL tells whether u is on the pattern's host.
func (p HostPattern) MatchURL(u *url.URL) bool { return p.Match(u.Scheme, u.Host) }

// SameHost tells whether a and b are on the same host and port by the rule of HostPattern.
func SameHost(a, b *url.URL) bool { return hostKey(a) == hostKey(b) }

// HostSet is a set of host patterns, for sets too large to try one pattern at a time (the
// hosts of a long URL list). Build it with Add and AddURL, then Has is safe for concurrent use.
type HostSet struct {
	exact map[string]bool // canonical host:port
	any   map[string]bool // canonical hosts, any port
}

// Add puts p in the set.
func (s *HostSet) Add(p HostPattern) {
	if p.host == "" {
		return
	}
	if s.exact == nil {
		s.exact, s.any = map[string]bool{}, map[string]bool{}
	}
	if p.port == "" {
		s.any[p.host] = true
	} else {
		s.exact[net.JoinHostPort(p.host, p.port)] = true
	}
}

// AddURL puts the host and port of u in the set, the port being the scheme's default when u
// has none.
func (s *HostSet) AddURL(u *url.URL) {
	host, port := splitHostPort(u.Host)
	s.Add(HostPattern{host: canonicalHost(host), port: effectivePort(u.Scheme, port)})
}

// Has tells whether some pattern of the set matches u.
func (s *HostSet) Has(u *url.URL) bool {
	if s.exact == nil {
		return false
	}
	host, port := splitHostPort(u.Host)
	host = canonicalHost(host)
	return s.any[host] || s.exact[net.JoinHostPort(host, effectivePort(u.Scheme, port))]
}

// ASCIIHost returns host or host:port with a name written in another script in punycode
// ("bücher.example" becomes "xn--bcher-kva.example"), the form DNS, TLS and the Host header
// use, as URL lines do. ASCII is returned as written.
func ASCIIHost(hostport string) (string, error) { return asciiHost(hostport) }

// DialHostPort is the host and port connections for u go to, as written in u (not made
// canonical), with the scheme's default port when u has none.
func DialHostPort(u *url.URL) string {
	return net.JoinHostPort(u.Hostname(), effectivePort(u.Scheme, u.Port()))
}

// hostKey is u's canonical host and port, the scheme's default when none is written.
func hostKey(u *url.URL) string {
	host, port := splitHostPort(u.Host)
	return net.JoinHostPort(canonicalHost(host), effectivePort(u.Scheme, port))
}

// splitHostPort splits "host:port", "[v6]:port", "[v6]", "host" or a bare IPv6 address into
// the host (without brackets) and the port ("" when none is written). Unlike net.SplitHostPort
// it accepts a missing port, which is what URLs and patterns mostly have.
func splitHostPort(hp string) (host, port string) {
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return hp, ""
		}
		host, rest := hp[1:end], hp[end+1:]
		port, _ = strings.CutPrefix(rest, ":")
		return host, port
	}
	if i := strings.IndexByte(hp, ':'); i >= 0 && strings.Count(hp, ":") == 1 {
		return hp[:i], hp[i+1:]
	}
	return hp, "" // a name, or an IPv6 address without brackets
}

// canonicalHost is the form hosts are compared in: ASCII (punycode, by the browsers' UTS #46
// mapping) and lower case, without a trailing dot. A name the mapping refuses is kept in lower
// case: it then equals only itself.
func canonicalHost(host string) string {
	host = strings.TrimSuffix(host, ".")
	if !isASCII(host) {
		if ascii, err := idna.Lookup.ToASCII(host); err == nil {
			return ascii
		}
	}
	return strings.ToLower(host)
}

// effectivePort is port, or the default port of scheme when port is "".
func effectivePort(scheme, port string) string {
	switch {
	case port != "":
		return port
	case strings.EqualFold(scheme, "https"):
		return "443"
	}
	return "80"
}
