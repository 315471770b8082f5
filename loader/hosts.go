package loader

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/webload/webload/urls"
)

// LookupFunc resolves a host name; net.DefaultResolver.LookupHost fits.
type LookupFunc func(ctx context.Context, host string) ([]string, error)

// CheckHosts resolves every distinct host of the targets once before the run, so a typo in a
// host name is one clear error up front instead of every request failing.
func CheckHosts(ctx context.Context, targets []urls.Target, lookup LookupFunc) error {
	seen := map[string]bool{}
	// Most lines of a long list share their scheme and host: a URL whose start up to its path
	// was seen is not parsed again (1 000 000 parses left hundreds of MB of garbage).
	prefixes := map[string]bool{}
	for _, t := range targets {
		prefix := authority(t.URL)
		if prefixes[prefix] {
			continue
		}
		u, err := url.Parse(t.URL)
		if err != nil {
			return fmt.Errorf("%s: bad URL %q: %w", t.Source, urls.Redacted(t.URL), err)
		}
		prefixes[prefix] = true
		host := u.Hostname()
		if seen[host] || net.ParseIP(host) != nil {
			continue
		}
		seen[host] = true
		if _, err := lookup(ctx, host); err != nil {
			return fmt.Errorf("%s: cannot resolve host %q: %w", t.Source, host, err)
		}
	}
	return nil
}

// authority is a URL up to where its path, query or fragment starts ("http://h:8080" of
// "http://h:8080/p?q"), or the whole URL when it has no "://".
func authority(raw string) string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return raw[:len(raw)-len(rest)+i]
	}
	return raw
}
