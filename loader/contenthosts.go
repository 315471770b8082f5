package loader

import (
	"net"
	"net/url"
	"strings"

	"github.com/webload/webload/urls"
)

// contentHosts are the names a page may give its own site by, each masked in the content
// fingerprints (content.Options.Hosts): two stacks reached by one production name each link to
// themselves by their own address (MediaWiki's "Retrieved from" line names the configured
// server), which is no change between them. They are the hosts of sites (the distinct schemes
// and hosts of the URL list) and of the login steps, as written and without their port; where
// Resolve and ConnectTo send their connections, with the port and without (a page on the
// default port writes none); every address the entries name; and the proxy's host. Each once,
// in the order found. cfg has been validated.
func contentHosts(cfg *Config, sites []*url.URL) []string {
	var out []string
	seen := map[string]bool{}
	addOne := func(h string) {
		if h != "" && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	// addHost adds a host without a port, IPv6 in brackets as URLs write it.
	addHost := func(host string) {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		addOne(host)
	}
	// add adds a URL's host (with its port or without) and its host alone.
	add := func(hostport string) {
		if h, _, err := net.SplitHostPort(hostport); err == nil {
			addOne(hostport)
			addHost(h)
			return
		}
		addHost(hostport)
	}
	r, _ := parseRoutes(cfg)
	addSite := func(u *url.URL) {
		if u.Host == "" {
			return
		}
		add(u.Host)
		for _, to := range r.connects(urls.DialHostPort(u), cfg.Proxy != "") {
			add(to)
		}
	}
	for _, u := range sites {
		addSite(u)
	}
	for _, t := range cfg.Login {
		if u, err := url.Parse(t.URL); err == nil {
			addSite(u)
		}
	}
	if r != nil {
		for _, e := range r.resolve {
			for _, a := range e.addrs {
				addHost(a)
			}
		}
		for _, e := range r.connect {
			switch {
			case e.toHost != "" && e.toPort != "":
				add(net.JoinHostPort(e.toHost, e.toPort))
			case e.toHost != "":
				addHost(e.toHost)
			}
		}
	}
	if u, err := url.Parse(cfg.Proxy); err == nil && cfg.Proxy != "" {
		add(u.Host)
	}
	return out
}
