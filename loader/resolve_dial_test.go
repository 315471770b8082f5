package loader

import (
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// namedSite is a loopback site reached under a name no resolver knows, which records what
// each request arrived with: the path, Host, TLS server name, protocol, cookie and peer.
type namedSite struct {
	*httptest.Server
	port string
	mu   sync.Mutex
	seen []siteRequest
}

type siteRequest struct {
	path, host, sni, proto, cookie, peer string
}

// newNamedSite serves a visit: "/" sets a cookie for shop.example and redirects to /next, a
// page whose image and stylesheet (the latter by absolute URL on base) are on the same host.
// listen is the loopback address; cert, when set, makes it HTTPS; h2 makes it speak HTTP/2
// only (h2c without cert).
func newNamedSite(t *testing.T, listen string, cert *tls.Certificate, h2 bool) *namedSite {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(listen, "0"))
	if err != nil {
		t.Skipf("no loopback at %s here: %v", listen, err)
	}
	s := &namedSite{}
	_, s.port, _ = net.SplitHostPort(ln.Addr().String())
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := siteRequest{path: r.URL.Path, host: r.Host, proto: r.Proto, peer: r.RemoteAddr}
		if r.TLS != nil {
			req.sni = r.TLS.ServerName
		}
		if c, err := r.Cookie("sid"); err == nil {
			req.cookie = c.Value
		}
		s.mu.Lock()
		s.seen = append(s.seen, req)
		s.mu.Unlock()
		switch r.URL.Path {
		case "/":
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "42", Domain: "shop.example", Path: "/"})
			http.Redirect(w, r, "/next", http.StatusFound)
		case "/next":
			w.Header().Set("Content-Type", "text/html")
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			fmt.Fprintf(w, `<html><head><link rel="stylesheet" href="%s://%s/style.css"></head><body><img src="/img.png"></body></html>`, scheme, r.Host)
		default:
			io.WriteString(w, "resource")
		}
	}))
	s.Listener.Close()
	s.Listener = ln
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	switch {
	case cert != nil:
		s.TLS = &tls.Config{Certificates: []tls.Certificate{*cert}}
		s.EnableHTTP2 = h2
		s.StartTLS()
	case h2:
		s.Config.Protocols = new(http.Protocols)
		s.Config.Protocols.SetUnencryptedHTTP2(true)
		s.Start()
	default:
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

func (s *namedSite) requests() []siteRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// withPort is list with every "%s" replaced by port.
func withPort(list []string, port string) []string {
	var out []string
	for _, s := range list {
		out = append(out, strings.ReplaceAll(s, "%s", port))
	}
	return out
}

// paths counts the requests per path.
func paths(reqs []siteRequest) map[string]int {
	out := map[string]int{}
	for _, r := range reqs {
		out[r.path]++
	}
	return out
}

// TestResolveKeepsTheURLsHost: with the URL's name mapped to a loopback address, every request
// of a browser-like visit (the redirect, the page, its resources) goes there, while the Host
// header, the TLS server name and certificate check, and the cookies stay those of the name.
func TestResolveKeepsTheURLsHost(t *testing.T) {
	t.Parallel()
	ca := newTestCA(t)
	leaf, _, _ := ca.issue(t, "shop.example", "shop.example") // valid for the name only
	cacert := writePEM(t, t.TempDir(), "ca.pem", "CERTIFICATE", ca.der)
	tests := []struct {
		name      string
		listen    string
		tls, h2   bool
		urlHost   string // %s: the site's port
		resolve   []string
		connectTo []string
		wantHost  string
	}{
		{name: "HTTP/1.1", listen: "127.0.0.1", urlHost: "shop.example:%s",
			resolve: []string{"shop.example:%s:127.0.0.1"}, wantHost: "shop.example:%s"},
		{name: "HTTP/1.1 over TLS", listen: "127.0.0.1", tls: true, urlHost: "shop.example:%s",
			resolve: []string{"shop.example:%s:127.0.0.1"}, wantHost: "shop.example:%s"},
		{name: "h2c", listen: "127.0.0.1", h2: true, urlHost: "shop.example:%s",
			resolve: []string{"shop.example:%s:127.0.0.1"}, wantHost: "shop.example:%s"},
		{name: "HTTP/2 over TLS", listen: "127.0.0.1", tls: true, h2: true, urlHost: "shop.example:%s",
			resolve: []string{"shop.example:%s:127.0.0.1"}, wantHost: "shop.example:%s"},
		{name: "IPv6 loopback", listen: "::1", urlHost: "shop.example:%s",
			resolve: []string{"shop.example:%s:[::1]"}, wantHost: "shop.example:%s"},
		{name: "connect-to from the default port", listen: "127.0.0.1", urlHost: "shop.example",
			connectTo: []string{"shop.example:80:127.0.0.1:%s"}, wantHost: "shop.example"},
		{name: "connect-to over TLS", listen: "127.0.0.1", tls: true, urlHost: "shop.example",
			connectTo: []string{"shop.example:443:127.0.0.1:%s"}, wantHost: "shop.example"},
		{name: "connect-to a name, resolved", listen: "127.0.0.1", tls: true, h2: true, urlHost: "shop.example",
			connectTo: []string{":443:backend.test:%s"}, resolve: []string{"backend.test:%s:127.0.0.1"}, wantHost: "shop.example"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var cert *tls.Certificate
			if tc.tls {
				cert = &leaf
			}
			site := newNamedSite(t, tc.listen, cert, tc.h2)
			scheme := "http"
			if tc.tls {
				scheme = "https"
			}
			url := scheme + "://" + strings.ReplaceAll(tc.urlHost, "%s", site.port) + "/"
			cfg := Config{Users: 1, Reps: 2, Parser: true, Cookies: true, FollowRedirects: true,
				HTTP2: tc.h2, CACert: cacert, Resolve: withPort(tc.resolve, site.port), ConnectTo: withPort(tc.connectTo, site.port)}
			results, _ := run(t, cfg, oneTarget(t, url))
			for _, r := range results {
				if r.Err != ErrNone {
					t.Errorf("result of kind %v: %+v", r.Err, r)
				}
			}
			reqs := site.requests()
			want := map[string]int{"/": 2, "/next": 2, "/img.png": 1, "/style.css": 1}
			if got := paths(reqs); !maps.Equal(got, want) {
				t.Errorf("requests per path %v, want %v", got, want)
			}
			wantHost := strings.ReplaceAll(tc.wantHost, "%s", site.port)
			for i, r := range reqs {
				if r.host != wantHost {
					t.Errorf("%s arrived with Host %q, want %q", r.path, r.host, wantHost)
				}
				if tc.tls && r.sni != "shop.example" {
					t.Errorf("%s arrived with TLS server name %q, want shop.example", r.path, r.sni)
				}
				if wantProto := map[bool]string{false: "HTTP/1.1", true: "HTTP/2.0"}[tc.h2]; r.proto != wantProto {
					t.Errorf("%s arrived over %s, want %s", r.path, r.proto, wantProto)
				}
				if host, _, _ := net.SplitHostPort(r.peer); host != tc.listen {
					t.Errorf("%s came from %s, want %s", r.path, r.peer, tc.listen)
				}
				// The cookie the first answer set for shop.example comes back on every later request.
				if wantCookie := map[bool]string{true: "", false: "42"}[i == 0]; r.cookie != wantCookie {
					t.Errorf("request %d (%s) sent cookie %q, want %q", i, r.path, r.cookie, wantCookie)
				}
			}
		})
	}
}

// Several addresses are tried in turn, as curl does: one that refuses costs a failed dial,
// not a failed request.
func TestResolveTriesTheAddressesInTurn(t *testing.T) {
	t.Parallel()
	site := newNamedSite(t, "127.0.0.1", nil, false)
	// 127.0.0.2 is loopback on Linux; nothing listens there on the site's port.
	if c, err := net.DialTimeout("tcp", "127.0.0.2:"+site.port, time.Second); err == nil {
		c.Close()
		t.Skip("something listens on 127.0.0.2 at the site's port")
	} else if !strings.Contains(err.Error(), "refused") {
		t.Skipf("127.0.0.2 does not refuse at once here: %v", err)
	}
	cfg := Config{Users: 1, Reps: 3, ConnectionClose: true, Resolve: []string{"shop.example:" + site.port + ":127.0.0.2,127.0.0.1"}}
	results, out := run(t, cfg, oneTarget(t, "http://shop.example:"+site.port+"/next"))
	checkResults(t, results, 3, ErrNone)
	if got := paths(site.requests())["/next"]; got != 3 {
		t.Errorf("site saw %d requests, want 3", got)
	}
	if out.Connections != 3 {
		t.Errorf("%d connections counted, want 3 (a refused dial is none)", out.Connections)
	}
}

// Through a proxy, curl's rules hold: the proxy resolves the names, so --resolve leaves the
// CONNECT target alone, while --connect-to changes it.
func TestRoutesThroughAProxy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		resolve   []string
		connectTo []string
		want      string // the CONNECT target, %s: the URL's port
	}{
		{"resolve: the proxy resolves the name", []string{"shop.example:%s:127.0.0.1"}, nil, "shop.example:%s"},
		{"connect-to: the tunnel goes there", nil, []string{"shop.example:%s:backend.test:8081"}, "backend.test:8081"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			site := newNamedSite(t, "127.0.0.1", nil, false)
			proxy := newRoutingProxy(t, site.Listener.Addr().String())
			cfg := Config{Users: 1, Reps: 2, Proxy: proxy.url(""), Resolve: withPort(tc.resolve, site.port), ConnectTo: withPort(tc.connectTo, site.port)}
			results, _ := run(t, cfg, oneTarget(t, "http://shop.example:"+site.port+"/next"))
			checkResults(t, results, 2, ErrNone)
			want := strings.ReplaceAll(tc.want, "%s", site.port)
			if got := proxy.seenTargets(); len(got) != 1 || got[want] != 1 {
				t.Errorf("CONNECT targets %v, want one to %s", got, want)
			}
			for _, r := range site.requests() {
				if r.host != "shop.example:"+site.port {
					t.Errorf("Host %q, want the URL's", r.host)
				}
			}
		})
	}
}

// -g and -p (ProbeOnce) go where the run's requests go.
func TestProbeFollowsResolve(t *testing.T) {
	t.Parallel()
	site := newNamedSite(t, "127.0.0.1", nil, false)
	cfg := Config{Users: 1, Reps: 1, Timeout: 5 * time.Second, Resolve: []string{"shop.example:" + site.port + ":127.0.0.1"}}
	p, err := ProbeOnce(cfg, oneTarget(t, "http://shop.example:"+site.port+"/next")[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "Host: shop.example:" + site.port; !strings.Contains(p.Request, want) {
		t.Errorf("request head %q lacks %q", p.Request, want)
	}
	if reqs := site.requests(); len(reqs) != 1 || reqs[0].host != "shop.example:"+site.port {
		t.Errorf("site saw %+v, want one request for shop.example", reqs)
	}
}

// A redirect to a port no Resolve entry maps, of a name one maps for another port (http to
// https, the usual case), fails as unresolved without a lookup, where it used to ask DNS for
// the name and load whatever address it gave: here the other port of the loopback, in real
// life production.
func TestResolveUnmappedPortNotLookedUp(t *testing.T) {
	t.Parallel()
	other := newHitServer(t, nil)
	_, otherPort, _ := net.SplitHostPort(other.Listener.Addr().String())
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+otherPort+"/there", http.StatusFound)
	})
	_, port, _ := net.SplitHostPort(site.Listener.Addr().String())
	cfg := Config{Users: 1, Reps: 1, FollowRedirects: true, FollowAnyHost: true, Resolve: []string{"localhost:" + port + ":127.0.0.1"}}
	results, out := run(t, cfg, []urls.Target{target(t, "http://localhost:"+port+"/")})
	var kinds []ErrKind
	for _, r := range results {
		if r.Kind == KindURL {
			kinds = append(kinds, r.Err)
		}
	}
	if !slices.Equal(kinds, []ErrKind{ErrNone, ErrDNS}) {
		t.Errorf("failure kinds %v, want none then dns", kinds)
	}
	want := fmt.Sprintf("lookup localhost: Resolve maps localhost for port %s only, and a name it maps is not looked up: add an entry for port %s", port, otherPort)
	if got := out.ErrorSamples[ErrDNS]; got != want {
		t.Errorf("dns failure %q, want %q", got, want)
	}
	if n := other.count("GET /there"); n != 0 {
		t.Errorf("the unmapped port got %d requests, want 0", n)
	}
}
