package loader

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/webload/webload/urls"
)

// LookupFunc resolves a host name; net.DefaultResolver.LookupHost fits.
type LookupFunc func(ctx context.Context, host string) ([]string, error)

// CheckHosts resolves every distinct host of the targets once before the run, so a typo in a
// host name is one clear error up front instead of every request failing.
func CheckHosts(ctx context.Context, targets []urls.Target, lookup LookupFunc) error {
	seen := map[string]bool{}
	for _, t := range targets {
		u, err := url.Parse(t.URL)
		if err != nil {
			return fmt.Errorf("%s: bad URL %q: %w", t.Source, urls.Redacted(t.URL), err)
		}
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
