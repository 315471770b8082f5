package loader

import (
	"bytes"
	"net/url"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/mask"
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

// maskSamples returns samples with the run's credentials hidden in each message (a message
// may quote a URL as filled in, or what a server said), in a new map; nil stays nil. It runs
// once, on the Outcome: a message is kept once per kind and target.
func maskSamples[K comparable](m *mask.Set, samples map[K]string) map[K]string {
	if samples == nil {
		return nil
	}
	out := make(map[K]string, len(samples))
	for k, v := range samples {
		out[k] = m.String(v)
	}
	return out
}

// userSecrets lists the credentials of the user x sends for: its own values (--data, the
// values its rules took), the values of the cookies it was given and of those the response in
// x sets (the jar takes them only after the answer is fingerprinted). nil for a user with none.
func (x *exchange) userSecrets() []string {
	var out []string
	if x.sess != nil {
		out = x.sess.secrets(out)
	}
	for _, set := range x.resp.Header.Cookies() { // the whole Set-Cookie value of each cookie
		pair, _, _ := bytes.Cut(set, []byte{';'})
		if _, v, ok := bytes.Cut(pair, []byte{'='}); ok {
			out = append(out, string(bytes.Trim(bytes.TrimSpace(v), `"`)))
		}
	}
	return x.jar.values(out)
}
