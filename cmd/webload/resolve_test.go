package main

import (
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// hostSite is a loopback site that records the Host header of every request.
type hostSite struct {
	*httptest.Server
	port  string
	mu    sync.Mutex
	hosts map[string]int
}

func newHostSite(t *testing.T) *hostSite {
	t.Helper()
	s := &hostSite{hosts: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hosts[r.Host]++
		s.mu.Unlock()
		fmt.Fprintf(w, "page %s\n", r.URL.Path)
	}))
	t.Cleanup(s.Close)
	_, s.port, _ = net.SplitHostPort(s.Listener.Addr().String())
	return s
}

func (s *hostSite) seen() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.hosts)
}

// A production URL list runs against a loopback stack by name: the name is never looked up,
// every request carries it as its Host, and the banner says where the connections went.
func TestResolveFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       func(port, file string) []string
		wantHost   string // %s: the site's port
		wantCount  int
		wantBanner string
	}{
		{"--resolve", func(port, file string) []string {
			return []string{"-c", "2", "-r", "3", "--resolve", "shop.example:" + port + ":127.0.0.1", "-f", file}
		}, "shop.example:%s", 6, "** http://shop.example:%s connects to 127.0.0.1:%s\n"},
		{"--resolve with an IPv6 address first", func(port, file string) []string {
			return []string{"-c", "1", "-r", "2", "--resolve", "shop.example:" + port + ":[::1],127.0.0.1", "-f", file}
		}, "shop.example:%s", 2, "** http://shop.example:%s connects to [::1]:%s (then 127.0.0.1:%s)\n"},
		{"--connect-to", func(port, _ string) []string {
			return []string{"-c", "1", "-r", "2", "--connect-to", "shop.example:80:127.0.0.1:" + port, "http://shop.example/"}
		}, "shop.example", 2, "** http://shop.example connects to 127.0.0.1:%s\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			site := newHostSite(t)
			file := filepath.Join(t.TempDir(), "urls.txt")
			list := fmt.Sprintf("http://shop.example:%s/\nhttp://shop.example:%s/cart\n", site.port, site.port)
			if err := os.WriteFile(file, []byte(list), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := webload(t, nil, tc.args(site.port, file)...)
			if code != 0 {
				t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
			}
			want := strings.ReplaceAll(tc.wantHost, "%s", site.port)
			if got := site.seen(); len(got) != 1 || got[want] != tc.wantCount {
				t.Errorf("Host headers seen %v, want %d requests with %q", got, tc.wantCount, want)
			}
			if banner := strings.ReplaceAll(tc.wantBanner, "%s", site.port); !strings.Contains(stderr, banner) {
				t.Errorf("stderr lacks the line %q:\n%s", banner, stderr)
			}
		})
	}
}

// -g makes its one request where the run would.
func TestResolveProbe(t *testing.T) {
	t.Parallel()
	site := newHostSite(t)
	host := "shop.example:" + site.port
	stdout, stderr, code := webload(t, nil, "--resolve", host+":127.0.0.1", "-g", "http://"+host+"/")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "Host: "+host) {
		t.Errorf("stdout lacks the Host header %q:\n%s", host, stdout)
	}
	if got := site.seen(); got[host] != 1 {
		t.Errorf("Host headers seen %v, want one %q", got, host)
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
