package main

import (
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// hostSite is a loopback site that records what every request arrived with. "/" sets a
// cookie for its host name and redirects to /next, a page with an image.
type hostSite struct {
	*httptest.Server
	port string
	mu   sync.Mutex
	seen []string // "path host sni cookie" per request
}

func newHostSite(t *testing.T, tls bool) *hostSite {
	t.Helper()
	s := &hostSite{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sni, cookie := "-", "-"
		if r.TLS != nil {
			sni = r.TLS.ServerName
		}
		if c, err := r.Cookie("sid"); err == nil {
			cookie = c.Value
		}
		s.mu.Lock()
		s.seen = append(s.seen, strings.Join([]string{r.URL.Path, r.Host, sni, cookie}, " "))
		s.mu.Unlock()
		switch r.URL.Path {
		case "/":
			host, _, _ := net.SplitHostPort(r.Host)
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "42", Domain: host, Path: "/"})
			http.Redirect(w, r, "/next", http.StatusFound)
		case "/next":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><img src="/img.png"></body></html>`)
		default:
			fmt.Fprint(w, "resource")
		}
	}))
	if tls {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	_, s.port, _ = net.SplitHostPort(s.Listener.Addr().String())
	return s
}

func (s *hostSite) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// A production URL list runs against a loopback stack by name: the name is never looked up;
// the redirect, the page and its image all go to the mapped address with the name as their
// Host (and TLS server name), the cookie set for the name comes back; the banner says where
// the connections went.
func TestResolveFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		tls        bool
		url        string   // %s: the site's port
		args       []string // %s: the site's port
		wantHost   string
		wantBanner string
	}{
		{"--resolve", false, "http://shop.example:%s/", []string{"--resolve", "shop.example:%s:127.0.0.1"},
			"shop.example:%s", "** http://shop.example:%s connects to 127.0.0.1:%s\n"},
		{"--resolve over TLS, verified for the name", true, "https://example.com:%s/", []string{"--resolve", "example.com:%s:127.0.0.1", "--cacert", "CA"},
			"example.com:%s", "** https://example.com:%s connects to 127.0.0.1:%s\n"},
		{"--resolve with an IPv6 address first", false, "http://shop.example:%s/", []string{"--resolve", "shop.example:%s:[::1],127.0.0.1"},
			"shop.example:%s", "** http://shop.example:%s connects to [::1]:%s (then 127.0.0.1:%s)\n"},
		{"--connect-to", false, "http://shop.example/", []string{"--connect-to", "shop.example:80:127.0.0.1:%s"},
			"shop.example", "** http://shop.example connects to 127.0.0.1:%s\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			site := newHostSite(t, tc.tls)
			// httptest's certificate is for example.com (and 127.0.0.1): trusted, it verifies only
			// if the name the client checks is the URL's.
			ca := filepath.Join(t.TempDir(), "ca.pem")
			if tc.tls {
				if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: site.Certificate().Raw}), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			port := func(s string) string { return strings.ReplaceAll(s, "%s", site.port) }
			args := []string{"-c", "1", "-r", "2"}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(port(a), "CA", ca))
			}
			_, stderr, code := webload(t, nil, append(args, port(tc.url))...)
			if code != 0 {
				t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
			}
			host, sni := port(tc.wantHost), "-"
			if tc.tls {
				sni = "example.com"
			}
			want := []string{"/ " + host + " " + sni + " -", "/next " + host + " " + sni + " 42", "/img.png " + host + " " + sni + " 42",
				"/ " + host + " " + sni + " 42", "/next " + host + " " + sni + " 42"}
			if got := site.requests(); !slices.Equal(got, want) {
				t.Errorf("requests (path host SNI cookie):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if banner := port(tc.wantBanner); !strings.Contains(stderr, banner) {
				t.Errorf("stderr lacks the line %q:\n%s", banner, stderr)
			}
		})
	}
}

// -g makes its one request where the run would.
func TestResolveProbe(t *testing.T) {
	t.Parallel()
	site := newHostSite(t, false)
	host := "shop.example:" + site.port
	stdout, stderr, code := webload(t, nil, "--resolve", host+":127.0.0.1", "-g", "http://"+host+"/")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "Host: "+host) {
		t.Errorf("stdout lacks the Host header %q:\n%s", host, stdout)
	}
	if got, want := site.requests(), []string{"/ " + host + " - -"}; !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
}

// Bad entries exit 2 with one line naming the flag, before any request.
func TestResolveBadEntries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"malformed", []string{"--resolve", "x"}, `webload: --resolve: bad entry "x": want HOST:PORT:ADDR`},
		{"port not a number", []string{"--resolve", "shop.example:https:127.0.0.1"},
			`webload: --resolve: bad port "https" in "shop.example:https:127.0.0.1": want a number from 1 to 65535`},
		{"address not an IP", []string{"--resolve", "shop.example:80:localhost"},
			`webload: --resolve: "localhost" in "shop.example:80:localhost" is not an IP address such as 127.0.0.1 or [::1]`},
		{"connect-to malformed", []string{"--connect-to", "shop.example:80:127.0.0.1"},
			`webload: --connect-to: bad entry "shop.example:80:127.0.0.1": want HOST1:PORT1:HOST2:PORT2`},
		{"connect-to bad port", []string{"--connect-to", "shop.example:80:127.0.0.1:x"},
			`webload: --connect-to: bad port "x" in "shop.example:80:127.0.0.1:x": want a number from 1 to 65535`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, append(tc.args, "http://127.0.0.1:1/")...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stderr != tc.want+"\n" {
				t.Errorf("stderr = %q, want the line %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
}

// An entry whose port no URL uses is warned of, and its name is not looked up for the URLs'
// port: the run stops before any request, where it used to ask DNS for the name and load
// whatever address it gave (localhost here, production in real life).
func TestResolveUnusedPort(t *testing.T) {
	t.Parallel()
	site := newHostSite(t, false)
	for _, host := range []string{"www.shop.example", "localhost"} {
		t.Run(host, func(t *testing.T) {
			entry := host + ":443:127.0.0.1"
			_, stderr, code := webload(t, nil, "-c", "1", "-r", "1", "--resolve", entry, "http://"+host+":"+site.port+"/")
			want := []string{
				fmt.Sprintf("** warning: %q maps none of the URLs' hosts and ports", entry),
				fmt.Sprintf("webload: command line: cannot connect to %s:%s: --resolve maps %s for port 443 only, and a name it maps is not looked up: add an entry for port %s\n",
					host, site.port, host, site.port),
			}
			if code != 2 || !strings.Contains(stderr, want[0]) || !strings.HasSuffix(stderr, want[1]) {
				t.Errorf("exit %d, want 2, and stderr with %q:\n%s", code, want, stderr)
			}
		})
	}
	if got := site.requests(); len(got) != 0 {
		t.Errorf("the site got %q, want no request", got)
	}
}
