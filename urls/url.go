package urls

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// normalizeURL validates raw and returns it absolute, without fragment and
// with unsafe bytes escaped. It rebuilds the URL from the original pieces
// instead of using url.URL.String, which would re-escape what the user
// wrote and make the server see a different request.
func normalizeURL(raw string) (string, error) {
	scheme, rest, ok := splitScheme(raw)
	if !ok {
		// siege's rule: a URL without scheme is plain HTTP.
		scheme, rest = "http", "//"+raw
	}
	lower := strings.ToLower(scheme)
	if lower != "http" && lower != "https" {
		return "", fmt.Errorf("%w %q", ErrUnsupportedScheme, scheme)
	}
	if !strings.HasPrefix(rest, "//") {
		return "", fmt.Errorf("missing \"//\" after %q", scheme+":")
	}
	rest = rest[2:]
	whole := rest
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i] // fragments are client-side only
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]

	hostport, userinfo := authority, ""
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		// The last '@' ends the userinfo, as in browsers, so a password
		// may contain '@'.
		hostport, userinfo = authority[at+1:], escapeRequestBytes(authority[:at])+"@"
	}
	sent, err := asciiHost(hostport)
	if err == nil {
		err = checkHostPort(sent)
	}
	if err != nil {
		if hostport == authority && strings.Contains(whole[len(authority):], "@") {
			return "", errMaybePassword
		}
		return "", err
	}
	escaped := escapeRequestBytes(tail)
	if userinfo == "" && ok && scheme == lower && len(rest) == len(whole) && sent == authority && tail != "" &&
		tail[0] == '/' && escaped == tail {
		// Already in the form sent, as most lines of a long list are: no copy.
		return raw, nil
	}
	var b strings.Builder
	b.Grow(len(raw) + 16)
	b.WriteString(lower)
	b.WriteString("://")
	b.WriteString(userinfo)
	b.WriteString(sent)
	if tail == "" || tail[0] == '?' {
		b.WriteByte('/') // a request line needs a path
	}
	b.WriteString(escaped)
	return b.String(), nil
}

// errMaybePassword replaces a host or port error when an '@' follows the authority: the "host"
// is then most likely a user name and the "port" a password cut short by a '#', '/' or '?'
// in it, and quoting it would print part of the password.
var errMaybePassword = errors.New(`invalid host or port; a "#", "/" or "?" in a user name or password must be written %23, %2F or %3F`)

// splitScheme separates "scheme:" from the rest. "localhost:8080/x" has the
// shape of a scheme but is a host and port, so a colon followed by a digit,
// '/', '?' or nothing is taken as a port separator unless the name is http or
// https or "//" follows.
func splitScheme(raw string) (scheme, rest string, ok bool) {
	colon := strings.IndexByte(raw, ':')
	if colon <= 0 || !isScheme(raw[:colon]) {
		return "", "", false
	}
	scheme, rest = raw[:colon], raw[colon+1:]
	lower := strings.ToLower(scheme)
	if strings.HasPrefix(rest, "//") || lower == "http" || lower == "https" {
		return scheme, rest, true
	}
	if rest == "" || rest[0] >= '0' && rest[0] <= '9' || rest[0] == '/' || rest[0] == '?' || rest[0] == '#' {
		return "", "", false
	}
	return scheme, rest, true
}

// isScheme reports whether s has the RFC 3986 scheme syntax.
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// checkHostPort rejects authorities an HTTP client could not connect to, so
// the mistake is reported with its line rather than as thousands of failed
// requests.
func checkHostPort(hp string) error {
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 || !isIPv6Literal(hp[1:end]) {
			return fmt.Errorf("invalid host %q", hp)
		}
		after := hp[end+1:]
		if after == "" {
			return nil
		}
		if after[0] != ':' {
			return fmt.Errorf("invalid host %q", hp)
		}
		return checkPort(after[1:])
	}
	host, port, hasPort := strings.Cut(hp, ":")
	if host == "" {
		return errors.New("missing host")
	}
	for i := 0; i < len(host); i++ {
		if !isHostByte(host[i]) {
			return fmt.Errorf("invalid host %q", host)
		}
	}
	if hasPort {
		return checkPort(port)
	}
	return nil
}

// asciiHost converts a host name written in another script to punycode ("bücher.example"
// becomes "xn--bcher-kva.example"), the form DNS, TLS certificates and the Host header use, with
// the browsers' (UTS #46) mapping, which also folds it to lower case. ASCII hosts are kept as
// written, so servers see what the file says.
func asciiHost(hp string) (string, error) {
	if isASCII(hp) {
		return hp, nil
	}
	host, port, hasPort := strings.Cut(hp, ":")
	ascii, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return "", fmt.Errorf("invalid host %q: %w", host, err)
	}
	if !strings.Contains(ascii, "xn--") {
		// Only characters the mapping drops were not ASCII (a stray byte-order mark, say):
		// a typo to report, not a name to send.
		return "", fmt.Errorf("invalid host %q", host)
	}
	if hasPort {
		return ascii + ":" + port, nil
	}
	return ascii, nil
}

// isASCII reports whether s is all ASCII; only then can it be a host name as sent.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// isIPv6Literal accepts what may sit between brackets: an IPv6 address,
// optionally with a "%25zone" suffix (RFC 6874).
func isIPv6Literal(s string) bool {
	addr, zone, hasZone := strings.Cut(s, "%25")
	if hasZone {
		if zone == "" {
			return false
		}
		for i := 0; i < len(zone); i++ {
			if !isHostByte(zone[i]) {
				return false
			}
		}
	}
	ip, err := netip.ParseAddr(addr)
	return err == nil && ip.Is6() && ip.Zone() == ""
}

// isHostByte is the unreserved set of RFC 3986. It leaves out the rarely
// used sub-delimiters and %-escapes, which in practice only show up by
// mistake; non-ASCII names are checked after their conversion to punycode.
func isHostByte(c byte) bool {
	return isNameByte(c) || c == '-' || c == '.' || c == '~'
}

// checkPort requires a decimal port in 1..65535; strconv would also accept
// a sign, which no URL may carry.
func checkPort(port string) error {
	if port == "" || len(port) > 5 {
		return fmt.Errorf("invalid port %q", port)
	}
	n := 0
	for i := 0; i < len(port); i++ {
		c := port[i]
		if c < '0' || c > '9' {
			return fmt.Errorf("invalid port %q", port)
		}
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > 65535 {
		return fmt.Errorf("invalid port %q", port)
	}
	return nil
}
