package loader

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/urls"
)

// ErrBadRoute marks a Config.Resolve or Config.ConnectTo entry that cannot be read.
var ErrBadRoute = errors.New("bad connection mapping")

// badRoute is ErrBadRoute in the words of format.
func badRoute(format string, args ...any) error {
	return describedError{msg: fmt.Sprintf(format, args...), err: ErrBadRoute}
}

// resolveEntry is one Config.Resolve entry: the connections for host:port go to addrs.
type resolveEntry struct {
	host  string   // in the form of matchHost; "*" for any host
	port  string   // a number, without leading zeros
	addrs []string // IP literals, unbracketed, tried in order
}

// connectEntry is one Config.ConnectTo entry.
type connectEntry struct {
	host, port     string // "" matches any
	toHost, toPort string // "" keeps the original; toHost unbracketed
}

// routes are the parsed Config.Resolve and Config.ConnectTo. A nil *routes maps nothing.
// Read-only once built, so safe for concurrent use.
type routes struct {
	resolve []resolveEntry
	connect []connectEntry
	// resolveName and connectName are what errors call Resolve and ConnectTo (see
	// Config.SettingName).
	resolveName, connectName string
}

// CheckResolve tells whether entry is a Config.Resolve entry, HOST:PORT:ADDR[,ADDR...]; the
// error says what is wrong with it, naming no setting, so a caller can prefix its own name.
func CheckResolve(entry string) error {
	_, err := parseResolve(entry)
	return err
}

// CheckConnectTo tells whether entry is a Config.ConnectTo entry, HOST1:PORT1:HOST2:PORT2, as
// CheckResolve does for Resolve.
func CheckConnectTo(entry string) error {
	_, err := parseConnectTo(entry)
	return err
}

// parseRoutes reads cfg's mappings; nil when there are none, so that dialing looks nothing up.
func parseRoutes(cfg *Config) (*routes, error) {
	if len(cfg.Resolve) == 0 && len(cfg.ConnectTo) == 0 {
		return nil, nil //nolint:nilnil // nil maps nothing
	}
	r := &routes{resolveName: cfg.name("Resolve"), connectName: cfg.name("ConnectTo")}
	for _, s := range cfg.Resolve {
		e, err := parseResolve(s)
		if err != nil {
			return nil, describedError{msg: cfg.name("Resolve") + ": " + err.Error(), err: err}
		}
		r.resolve = append(r.resolve, e)
	}
	for _, s := range cfg.ConnectTo {
		e, err := parseConnectTo(s)
		if err != nil {
			return nil, describedError{msg: cfg.name("ConnectTo") + ": " + err.Error(), err: err}
		}
		r.connect = append(r.connect, e)
	}
	return r, nil
}

// parseResolve reads curl's --resolve syntax. A leading "+" (curl's entries that expire like
// looked-up ones) is accepted: a run looks each name up only once anyway. ADDR may be an IPv6
// address with or without brackets, since it runs to the end of the entry.
func parseResolve(s string) (resolveEntry, error) {
	bad := func() error {
		return badRoute("bad entry %q: want HOST:PORT:ADDR", s)
	}
	host, rest, ok := cutField(strings.TrimPrefix(s, "+"))
	if !ok || host == "" {
		return resolveEntry{}, bad()
	}
	port, list, ok := cutField(rest)
	if !ok || port == "" || list == "" {
		return resolveEntry{}, bad()
	}
	e := resolveEntry{host: "*"}
	var err error
	if host != "*" {
		if e.host, err = routeHost(host, s); err != nil {
			return resolveEntry{}, err
		}
	}
	if e.port, err = routePort(port, s); err != nil {
		return resolveEntry{}, err
	}
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(a, "["), "]"))
		if err != nil {
			return resolveEntry{}, badRoute("%q in %q is not an IP address such as 127.0.0.1 or [::1]", a, s)
		}
		e.addrs = append(e.addrs, ip.String())
	}
	return e, nil
}

// parseConnectTo reads curl's --connect-to syntax: four fields, IPv6 addresses in brackets.
func parseConnectTo(s string) (connectEntry, error) {
	var f [4]string
	rest, ok := s, true
	for i := range 3 {
		if f[i], rest, ok = cutField(rest); !ok {
			break
		}
	}
	last, _, more := cutField(rest)
	if !ok || more || (strings.HasPrefix(rest, "[") && !strings.HasSuffix(rest, "]")) {
		return connectEntry{}, badRoute("bad entry %q: want HOST1:PORT1:HOST2:PORT2", s)
	}
	f[3] = last
	var e connectEntry
	for i, to := range []*string{&e.host, &e.port, &e.toHost, &e.toPort} {
		if f[i] == "" {
			continue // matches any, or keeps the original
		}
		check := routeHost
		if i%2 == 1 {
			check = routePort
		}
		var err error
		if *to, err = check(f[i], s); err != nil {
			return connectEntry{}, err
		}
	}
	return e, nil
}

// cutField cuts s at its first colon outside brackets: field before it (brackets kept), rest
// after it; ok is false when there is no such colon, and field is then all of s.
func cutField(s string) (field, rest string, ok bool) {
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return s, "", false
		}
		if end+1 == len(s) || s[end+1] != ':' {
			return s, "", false
		}
		return s[:end+1], s[end+2:], true
	}
	field, rest, ok = strings.Cut(s, ":")
	return field, rest, ok
}

// routeHost checks a host field of entry: a name, or an IP address (IPv6 in brackets).
func routeHost(h, entry string) (string, error) {
	if strings.HasPrefix(h, "[") {
		ip, err := netip.ParseAddr(strings.TrimSuffix(h[1:], "]"))
		if err != nil || !ip.Is6() {
			return "", badRoute("%q in %q is no IPv6 address", h, entry)
		}
		return ip.String(), nil
	}
	if strings.ContainsAny(h, "[]/@ \t") || matchHost(h) == "" {
		return "", badRoute("%q in %q is no host name", h, entry)
	}
	return matchHost(h), nil
}

// routePort checks a port field of entry.
func routePort(p, entry string) (string, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return "", badRoute("bad port %q in %q: want a number from 1 to 65535", p, entry)
	}
	return strconv.Itoa(n), nil
}

// matchHost is the form host names are compared in: lower case, without the trailing dot
// of a fully qualified name, and IPv6 addresses in their canonical form.
func matchHost(h string) string {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	// Only IPv6 has several spellings (::1, 0:0::1); parsing names too would cost an error
	// value on every new connection.
	if strings.IndexByte(h, ':') >= 0 {
		if ip, err := netip.ParseAddr(h); err == nil {
			return ip.String()
		}
	}
	return h
}

// connectTo is where the connections for addr (host:port) go by ConnectTo: the first entry
// that matches it, as curl picks; addr itself when none does.
func (r *routes) connectTo(addr string) string {
	i := r.connectMatch(addr)
	if i < 0 {
		return addr
	}
	host, port, _ := net.SplitHostPort(addr)
	if e := r.connect[i]; e.toHost != "" {
		host = e.toHost
	}
	if e := r.connect[i]; e.toPort != "" {
		port = e.toPort
	}
	return net.JoinHostPort(host, port)
}

// connectMatch is the index of the ConnectTo entry for addr, -1 for none.
func (r *routes) connectMatch(addr string) int {
	if r == nil || len(r.connect) == 0 {
		return -1
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return -1
	}
	h := matchHost(host)
	for i, e := range r.connect {
		if (e.host == "" || e.host == h) && (e.port == "" || e.port == port) {
			return i
		}
	}
	return -1
}

// dialAddrs are the addresses to dial, in turn, for addr (host:port): Resolve's for its host
// and port, else addr itself.
func (r *routes) dialAddrs(addr string) []string {
	i := r.resolveMatch(addr)
	if i < 0 {
		return []string{addr}
	}
	_, port, _ := net.SplitHostPort(addr)
	out := make([]string, len(r.resolve[i].addrs))
	for k, a := range r.resolve[i].addrs {
		out[k] = net.JoinHostPort(a, port)
	}
	return out
}

// resolveMatch is the index of the Resolve entry for addr, -1 for none: the last entry for its
// host and port wins, as a later --resolve replaces an earlier one in curl, and one for the
// host beats "*".
func (r *routes) resolveMatch(addr string) int {
	found := -1
	if r == nil || len(r.resolve) == 0 {
		return found
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return found
	}
	h := matchHost(host)
	for i, e := range r.resolve {
		if e.port == port && (e.host == h || (e.host == "*" && (found < 0 || r.resolve[found].host == "*"))) {
			found = i
		}
	}
	return found
}

// UnusedRoutes are the entries of Resolve and then ConnectTo, as given, that none of hostports
// (the URLs' host:port, see urls.DialHostPort) is dialled by: a port mistyped in an entry (443 for
// http URLs) leaves the URLs unmapped (a Resolve name is then not looked up, see
// routes.unmapped; a ConnectTo one goes to the name's real address). Such an entry may still
// serve redirects and resources on other hosts. With Proxy, Resolve entries
// are left out: the proxy resolves the names.
func (c *Config) UnusedRoutes(hostports []string) []string {
	r, err := parseRoutes(c)
	if err != nil || r == nil {
		return nil
	}
	usedResolve := make([]bool, len(r.resolve))
	usedConnect := make([]bool, len(r.connect))
	for _, hp := range hostports {
		if i := r.connectMatch(hp); i >= 0 {
			usedConnect[i] = true
		}
		if i := r.resolveMatch(r.connectTo(hp)); i >= 0 {
			usedResolve[i] = true
		}
	}
	var out []string
	for i, used := range usedResolve {
		if !used && c.Proxy == "" {
			out = append(out, c.Resolve[i])
		}
	}
	for i, used := range usedConnect {
		if !used {
			out = append(out, c.ConnectTo[i])
		}
	}
	return out
}

// Connects says where the connections for a URL's host and port (hostport, "example.com:443")
// go when Resolve or ConnectTo changes it: the addresses dialled in turn, or, with Proxy, the
// target of the tunnel (the proxy resolves names). nil when nothing changes it or the settings
// are bad (see Validate).
func (c *Config) Connects(hostport string) []string {
	r, err := parseRoutes(c)
	if err != nil {
		return nil
	}
	return r.connects(hostport, c.Proxy != "")
}

// connects is Config.Connects for the parsed routes.
func (r *routes) connects(hostport string, proxied bool) []string {
	if r == nil {
		return nil
	}
	to := r.connectTo(hostport)
	dial := []string{to}
	if !proxied {
		dial = r.dialAddrs(to)
	}
	if len(dial) == 1 && dial[0] == hostport {
		return nil
	}
	return dial
}

// Routed is targets with each URL's host replaced by the one its connections go to (the
// first address Connects gives), for looking the names up before a run (CheckHosts): a name
// Resolve maps needs no lookup, and a ConnectTo host does. targets itself when nothing is
// mapped; URLs that do not parse are kept for CheckHosts to report.
func (c *Config) Routed(targets []urls.Target) []urls.Target {
	r, err := parseRoutes(c)
	if err != nil || r == nil {
		return targets
	}
	out := make([]urls.Target, 0, len(targets))
	for _, t := range targets {
		if u, err := url.Parse(t.URL); err == nil && u.Host != "" {
			if to := r.connects(urls.DialHostPort(u), c.Proxy != ""); to != nil {
				u.Host = to[0]
				t.URL = u.String()
			}
		}
		out = append(out, t)
	}
	return out
}

// unmapped says why a connection to addr (host:port, after ConnectTo) is not made when no
// Resolve entry maps it but one names its host for another port: such a name is never looked
// up, since a port mistyped in an entry (443 given for http:// URLs), or a redirect from http
// to https, would otherwise send the load to the name's real address, production's, without
// a word. "" for any other addr.
func (r *routes) unmapped(addr string) string {
	if r == nil || len(r.resolve) == 0 || r.resolveMatch(addr) >= 0 {
		return ""
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	h := matchHost(host)
	var ports []string
	for _, e := range r.resolve {
		if e.host == h && !slices.Contains(ports, e.port) {
			ports = append(ports, e.port)
		}
	}
	if len(ports) == 0 {
		return ""
	}
	noun := "port"
	if len(ports) > 1 {
		noun = "ports"
	}
	return fmt.Sprintf("%s maps %s for %s %s only, and a name it maps is not looked up: add an entry for port %s",
		r.resolveName, host, noun, strings.Join(ports, ", "), port)
}

// LookUpHosts looks up before the run the host names the targets connect to (see Routed and
// CheckHosts), so that a typo is one clear error up front; a name Resolve maps for other
// ports than the one a URL connects to is that URL's error instead (see routes.unmapped),
// not looked up.
// Through Proxy it looks up nothing: the proxy resolves the names.
func (c *Config) LookUpHosts(ctx context.Context, targets []urls.Target, lookup LookupFunc) error {
	if c.Proxy != "" {
		return nil
	}
	r, err := parseRoutes(c)
	if err != nil {
		return err
	}
	if r != nil {
		seen := map[string]bool{}
		for _, t := range targets {
			u, err := url.Parse(t.URL)
			if err != nil || u.Host == "" {
				continue // CheckHosts reports it
			}
			hp := urls.DialHostPort(u)
			if seen[hp] {
				continue
			}
			seen[hp] = true
			to := r.connectTo(hp)
			if why := r.unmapped(to); why != "" {
				return fmt.Errorf("%s: cannot connect to %s: %s", t.Source, to, why)
			}
		}
	}
	return CheckHosts(ctx, c.Routed(targets), lookup)
}
