package loader

import (
	"net/url"

	"github.com/valyala/fasthttp"
)

// secretNames lists the headers of cfg that carry credentials (see SecretHeader), which go only
// to the host of the URL they are sent for; none with AuthAnyHost.
func secretNames(cfg *Config) []string {
	if cfg.AuthAnyHost {
		return nil
	}
	var names []string
	for _, h := range cfg.Headers {
		if SecretHeader(h.Name) {
			names = append(names, h.Name)
		}
	}
	return names
}

// dropSecrets takes the run's credentials off req, which is about to go to u, when u is on
// another host or port than origin, the URL of the list the request is made for. That is curl's
// rule, stricter than Go's client, which compares host names only: another port on the same
// machine is often another service. A hop back to origin's host gets them again, since every
// hop starts from the template.
func (l *Loader) dropSecrets(req *fasthttp.Request, u, origin *url.URL) {
	if len(l.secrets) == 0 || u == origin || sameHost(u, origin) {
		return
	}
	for _, name := range l.secrets {
		req.Header.Del(name)
	}
}
