package loader

import (
	"net/url"

	"github.com/webload/webload/urls"
)

// hostSet is a set of hosts that redirects and resources may go to, matched by the one rule
// of urls.HostPattern (case, punycode, trailing dot, default ports). An entry with a port
// matches that host and port; one without matches the host on any port.
type hostSet struct{ set urls.HostSet }

func newHostSet() hostSet { return hostSet{} }

// addURL adds the host and port of u.
func (s *hostSet) addURL(u *url.URL) { s.set.AddURL(u) }

// addName adds "host" (any port) or "host:port". A name that is no host pattern is left out:
// it could match no URL anyway, and ResourceHosts has never been refused for one.
func (s *hostSet) addName(name string) {
	if p, err := urls.ParseHostPattern(name); err == nil {
		s.set.Add(p)
	}
}

func (s *hostSet) has(u *url.URL) bool { return s.set.Has(u) }

// sameHost tells whether a and b name the same host and port.
func sameHost(a, b *url.URL) bool { return urls.SameHost(a, b) }

// sendableHost puts the host of u, found in a page or a Location header, in the form requests
// carry: punycode for a name in another script, as browsers send it (url.URL.String would
// %-escape it into a Host no server accepts). false: u has no host that can be sent.
func sendableHost(u *url.URL) bool {
	host, err := urls.ASCIIHost(u.Host)
	if err != nil {
		return false
	}
	u.Host = host
	return true
}
