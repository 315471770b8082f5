package main

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/internal/inputfile"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// browserFlags are the options that make users behave like browsers: page resources, cookies,
// logins, redirects, compression, credentials and the protocol, writing into o. def holds their
// defaults.
func browserFlags(o *runOptions, def *loader.Config) []cli.Flag {
	o.resourceHosts.split = splitList // "cdn.example.com,img.example.com" names two
	return []cli.Flag{
		&cli.BoolFlag{Name: "parser", Destination: &o.parser, Value: def.Parser, Category: catBrowser, Usage: "fetch each HTML page's images, scripts, stylesheets and icons like a browser, as siege does (--no-parser: only the URLs)"},
		&cli.BoolFlag{Name: "no-parser", Destination: &o.noParser, Category: catBrowser, Usage: "do not fetch page resources"},
		typedListFlag(&cli.GenericFlag{Name: "resource-hosts", Category: catBrowser, Usage: "also fetch resources from `HOST[:PORT]` (e.g. a CDN); repeatable or comma-separated. By default only the page's own host"}, &o.resourceHosts, parseResourceHost),
		&cli.BoolFlag{Name: "no-cache", Destination: &o.noCache, Category: catBrowser, Usage: "fetch a page's resources on every visit, not once per user (--rate: not once per run, as its arrivals are returning visitors)"},
		&cli.BoolFlag{Name: "lazy-images", Destination: &o.lazyImages, Value: def.LazyImages, Category: catBrowser, Usage: "also fetch images marked loading=\"lazy\", which browsers fetch only when scrolled near; without it they are left out. Of every image one srcset candidate is fetched, as a 1x display at 1280 px picks it"},
		&cli.BoolFlag{Name: "no-cookies", Destination: &o.noCookies, Value: !def.Cookies, DisableDefaultText: true, Category: catBrowser, Usage: "do not keep cookies (by default each user has its own cookie jar)"},
		&cli.StringSliceFlag{Name: "login", Destination: &o.login, Category: catBrowser, Usage: "each user first requests `\"URL [POST data]\"` once (siege's login-url), after the steps of any --login-file; repeatable for multi-step logins"},
		&cli.BoolFlag{Name: "no-follow", Destination: &o.noFollow, Value: !def.FollowRedirects, DisableDefaultText: true, Category: catBrowser, Usage: "do not follow redirects (by default up to 10 hops, each a transaction; a URL still redirected after them is a too-many-redirects failure)"},
		&cli.BoolFlag{Name: "follow-any-host", Destination: &o.followAnyHost, Category: catBrowser, Usage: "follow redirects to hosts that are not in the URL list"},
		&cli.BoolFlag{Name: "auth-any-host", Destination: &o.authAnyHost, DisableDefaultText: true, Category: catBrowser, Usage: "send -u and the secret -H headers (Authorization, Cookie, X-Api-Key...) to every host; by default a redirect or resource on another host or port gets none, as with curl"},
		&cli.BoolFlag{Name: "bare", Destination: &o.bare, DisableDefaultText: true, Category: catBrowser, Usage: "send the URLs alone, as wrk does: no page resources, cookies, redirects or compression (--no-parser --no-cookies --no-follow --accept-encoding \"\"). On Linux a run of plain http URLs on one host (on any, with --rate), without pauses, checks or per-user values, then goes through an event loop, at about two thirds of the usual engine's client CPU a request"},
		&cli.StringFlag{Name: "accept-encoding", Destination: &o.acceptEncoding, Value: def.AcceptEncoding, Category: catBrowser, Usage: "Accept-Encoding `VALUE` sent with every request; \"\" sends none"},
		typedFlag(&cli.GenericFlag{Name: "user", Aliases: []string{"u"}, Category: catRequests, Usage: "basic authentication `USER:PASSWORD` for every request to the URLs' own hosts (see --auth-any-host)"}, &o.user, "", optional(parseUser)),
		&cli.StringFlag{Name: "get", Aliases: []string{"g"}, Destination: &o.get, Category: catDiagnostics, Usage: "make one GET of `URL` and print the request and response headers (secrets hidden), as siege -g"},
		&cli.StringFlag{Name: "print", Aliases: []string{"p"}, Destination: &o.print, Category: catDiagnostics, Usage: "like -g `URL`, and print the decoded body too, as siege -p"},
		&cli.StringFlag{Name: "cacert", Destination: &o.cacert, Category: catRequests, Usage: "trust the CA certificates in PEM `FILE` too (verification is on unless --insecure)"},
		&cli.StringFlag{Name: "cert", Destination: &o.cert, Category: catRequests, Usage: "client certificate, PEM `FILE`"},
		&cli.StringFlag{Name: "key", Destination: &o.key, Category: catRequests, Usage: "client certificate's private key, PEM `FILE`"},
		&cli.StringFlag{Name: "proxy", Destination: &o.proxy, Category: catRequests, Usage: "send everything through the HTTP proxy at `URL` (http://[user:pass@]host:port), tunnelled with CONNECT"},
		typedListFlag(&cli.GenericFlag{Name: "resolve", Category: catRequests, Usage: "`HOST:PORT:ADDR`: connect to ADDR for the URLs on HOST:PORT, as curl does (ADDR an IP address, [::1] for IPv6; several, comma-separated, are tried in turn; HOST * for any), while Host, TLS name and certificate check, cookies, redirects and resources keep HOST: one URL list run against another stack by name. Repeatable; through --proxy, the proxy resolves names"}, &o.resolve, checked(loader.CheckResolve)),
		typedListFlag(&cli.GenericFlag{Name: "connect-to", Category: catRequests, Usage: "`HOST1:PORT1:HOST2:PORT2`: connect to HOST2:PORT2 for the URLs on HOST1:PORT1, as curl does (an empty HOST1 or PORT1 matches any, an empty HOST2 or PORT2 keeps the URL's; IPv6 in brackets), e.g. to one node behind a load balancer. Repeatable; the first match wins"}, &o.connectTo, checked(loader.CheckConnectTo)),
		&cli.BoolFlag{Name: "http2", Destination: &o.http2, DisableDefaultText: true, Category: catRequests, Usage: "send requests over HTTP/2 (https: agreed by ALPN; http: h2c with prior knowledge), for sites that only speak it; the users share one connection per host"},
		&cli.StringFlag{Name: "rc", Aliases: []string{"R"}, Destination: &o.rc, Category: catRequests, Usage: "read siege's settings from the siegerc `FILE` (or the file named by $SIEGERC); the command line wins. Never read unless asked"},
		&cli.BoolFlag{Name: "config", Aliases: []string{"C"}, Destination: &o.config, Category: catDiagnostics, Usage: "print the effective settings (secrets hidden) and exit, as siege -C"},
		&cli.StringFlag{Name: "header-file", Destination: &o.headerFile, Category: catRequests, Usage: "add the headers in `FILE` (one \"Name: value\" per line, # comments) to every request"},
	}
}

// browserFromFlags sets the loader's browser-like options and credentials from the flags.
// sess names the users' own variables, which --login lines may refer to.
func browserFromFlags(o *runOptions, cfg *loader.Config, env lookupEnv, sess *sessions, p *problems) {
	cfg.Parser = o.parser && !o.noParser
	o.resourceHosts.book(p)
	cfg.ResourceHosts = o.resourceHosts.values()
	cfg.NoCache = o.noCache
	cfg.LazyImages = o.lazyImages
	cfg.Cookies = !o.noCookies
	cfg.FollowRedirects = !o.noFollow
	cfg.FollowAnyHost = o.followAnyHost
	cfg.AuthAnyHost = o.authAnyHost
	cfg.AcceptEncoding = o.acceptEncoding
	cfg.CACert, cfg.ClientCert, cfg.ClientKey, cfg.Proxy = o.cacert, o.cert, o.key, o.proxy
	o.resolve.book(p)
	cfg.Resolve = o.resolve.values()
	o.connectTo.book(p)
	cfg.ConnectTo = o.connectTo.values()
	cfg.HTTP2 = o.http2
	for i, line := range o.login.Value() {
		t, err := urls.ParseLine(line, urls.Options{Getenv: env, PerUser: sess.perUser})
		if err != nil {
			p.addValue("login", line, fmt.Errorf("--login %d: %w", i+1, sess.explain(err)))
			continue
		}
		t.Source = fmt.Sprintf("--login %d", i+1)
		cfg.Login = append(cfg.Login, t)
	}
	if o.headerFile != "" {
		hs, err := readHeaderFile(o.headerFile)
		if err != nil {
			p.add("header-file", err)
		}
		cfg.Headers = append(hs, cfg.Headers...) // -H given on the command line wins
	}
	if up := o.user.text; up != "" {
		o.user.book(p)
		cfg.Headers = append(cfg.Headers, loader.Header{Name: "Authorization",
			Value: "Basic " + base64.StdEncoding.EncodeToString([]byte(up))})
	}
}

// bareFromFlags applies --bare after the browser flags: it turns off what they turn on, and
// refuses the ones given with it that would need a browser-like visit.
func bareFromFlags(c *cli.Context, o *runOptions, cfg *loader.Config, p *problems) {
	if !o.bare {
		return
	}
	for _, name := range []string{"parser", "accept-encoding", "login", "login-file"} {
		if c.IsSet(name) {
			p.addf(name, "--bare sends the URLs alone: it takes no --%s", name)
		}
	}
	cfg.Parser, cfg.Cookies, cfg.FollowRedirects, cfg.AcceptEncoding = false, false, false, ""
}

// parseHeader reads "Name: value", both trimmed; false when there is no colon or no name.
func parseHeader(s string) (loader.Header, bool) {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	return loader.Header{Name: name, Value: strings.TrimSpace(value)}, ok && name != ""
}

// readHeaderFile reads "Name: value" lines; a bad one is an error naming the file and line.
func readHeaderFile(path string) ([]loader.Header, error) {
	f, err := inputfile.Open(path, inputfile.Settings)
	if err != nil {
		return nil, fmt.Errorf("--header-file: %w", err)
	}
	defer f.Close()
	var out []loader.Header
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		h, ok := parseHeader(line)
		if !ok || strings.ContainsAny(h.Name, " \t") {
			return nil, fmt.Errorf("%s:%d: want \"Name: value\"", path, n)
		}
		out = append(out, h)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// parseResourceHost reads one host of --resource-hosts: an entry that is no host pattern (a
// URL, say) would match nothing, in silence.
func parseResourceHost(name string) (string, error) {
	_, err := urls.ParseHostPattern(name)
	return name, err
}

// parseUser reads -u USER:PASSWORD, which the error never shows.
func parseUser(s string) (string, error) {
	if !strings.Contains(s, ":") {
		return "", errors.New("want USER:PASSWORD (got a value without a colon)")
	}
	return s, nil
}

// parseHeaderFlag reads -H "Name: value".
func parseHeaderFlag(s string) (loader.Header, error) {
	h, ok := parseHeader(s)
	if !ok {
		return h, fmt.Errorf("want \"Name: value\" (got %q)", s)
	}
	return h, nil
}
