package loader

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strconv"
	"testing"

	"github.com/webload/webload/urls"
)

func TestParseResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, entry string
		want        resolveEntry
		err         string // the whole message; "" for a good entry
	}{
		{"name to IPv4", "shop.example:8080:127.0.0.1", resolveEntry{"shop.example", "8080", []string{"127.0.0.1"}}, ""},
		{"names compare in lower case", "Shop.Example.:443:127.0.0.1", resolveEntry{"shop.example", "443", []string{"127.0.0.1"}}, ""},
		{"IPv6 in brackets", "shop.example:443:[::1]", resolveEntry{"shop.example", "443", []string{"::1"}}, ""},
		{"IPv6 without brackets", "shop.example:443:::1", resolveEntry{"shop.example", "443", []string{"::1"}}, ""},
		{"several addresses, in order", "shop.example:80:127.0.0.2, [::1],127.0.0.1",
			resolveEntry{"shop.example", "80", []string{"127.0.0.2", "::1", "127.0.0.1"}}, ""},
		{"any host", "*:443:127.0.0.1", resolveEntry{"*", "443", []string{"127.0.0.1"}}, ""},
		{"curl's + prefix", "+shop.example:80:127.0.0.1", resolveEntry{"shop.example", "80", []string{"127.0.0.1"}}, ""},
		{"an IPv6 host", "[::1]:80:127.0.0.1", resolveEntry{"::1", "80", []string{"127.0.0.1"}}, ""},
		{"leading zeros in the port", "shop.example:0080:127.0.0.1", resolveEntry{"shop.example", "80", []string{"127.0.0.1"}}, ""},

		{"one field", "x", resolveEntry{}, `bad entry "x": want HOST:PORT:ADDR`},
		{"no address", "shop.example:80", resolveEntry{}, `bad entry "shop.example:80": want HOST:PORT:ADDR`},
		{"empty address", "shop.example:80:", resolveEntry{}, `bad entry "shop.example:80:": want HOST:PORT:ADDR`},
		{"no host", ":80:127.0.0.1", resolveEntry{}, `bad entry ":80:127.0.0.1": want HOST:PORT:ADDR`},
		{"curl's removal", "-shop.example:80", resolveEntry{}, `bad entry "-shop.example:80": want HOST:PORT:ADDR`},
		{"port not a number", "shop.example:http:127.0.0.1", resolveEntry{},
			`bad port "http" in "shop.example:http:127.0.0.1": want a number from 1 to 65535`},
		{"port out of range", "shop.example:70000:127.0.0.1", resolveEntry{},
			`bad port "70000" in "shop.example:70000:127.0.0.1": want a number from 1 to 65535`},
		{"address is a name", "shop.example:80:localhost", resolveEntry{},
			`"localhost" in "shop.example:80:localhost" is not an IP address such as 127.0.0.1 or [::1]`},
		{"one bad address of several", "shop.example:80:127.0.0.1,,", resolveEntry{},
			`"" in "shop.example:80:127.0.0.1,," is not an IP address such as 127.0.0.1 or [::1]`},
		{"a URL as host", "http://shop.example:80:127.0.0.1", resolveEntry{},
			`bad port "//shop.example" in "http://shop.example:80:127.0.0.1": want a number from 1 to 65535`},
		{"a dot for a host", ".:80:127.0.0.1", resolveEntry{}, `"." in ".:80:127.0.0.1" is no host name`},
		{"bad IPv6 host", "[shop]:80:127.0.0.1", resolveEntry{}, `"[shop]" in "[shop]:80:127.0.0.1" is no IPv6 address`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseResolve(tc.entry)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || !errors.Is(err, ErrBadRoute) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestParseConnectTo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, entry string
		want        connectEntry
		err         string
	}{
		{"all four", "shop.example:443:lb.test:8443", connectEntry{"shop.example", "443", "lb.test", "8443"}, ""},
		{"any host", ":443:lb.test:", connectEntry{"", "443", "lb.test", ""}, ""},
		{"any port, keep the host", "shop.example:::8443", connectEntry{"shop.example", "", "", "8443"}, ""},
		{"IPv6 target", "shop.example:80:[::1]:8080", connectEntry{"shop.example", "80", "::1", "8080"}, ""},
		{"IPv6 target, port kept", "shop.example:80:[::1]:", connectEntry{"shop.example", "80", "::1", ""}, ""},
		{"IPv6 source", "[::1]:80:127.0.0.1:8080", connectEntry{"::1", "80", "127.0.0.1", "8080"}, ""},
		{"nothing at all", ":::", connectEntry{}, ""},

		{"three fields", "shop.example:80:127.0.0.1", connectEntry{}, `bad entry "shop.example:80:127.0.0.1": want HOST1:PORT1:HOST2:PORT2`},
		{"five fields", "a:1:b:2:3", connectEntry{}, `bad entry "a:1:b:2:3": want HOST1:PORT1:HOST2:PORT2`},
		{"bare IPv6 target", "a:80:::1:80", connectEntry{}, `bad entry "a:80:::1:80": want HOST1:PORT1:HOST2:PORT2`},
		{"unclosed bracket", "a:80:[::1:80", connectEntry{}, `bad entry "a:80:[::1:80": want HOST1:PORT1:HOST2:PORT2`},
		{"bad port", "a:80:b:x", connectEntry{}, `bad port "x" in "a:80:b:x": want a number from 1 to 65535`},
		{"bad source port", "a:0:b:1", connectEntry{}, `bad port "0" in "a:0:b:1": want a number from 1 to 65535`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseConnectTo(tc.entry)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// Which entry wins follows curl: the last --resolve for a host and port (a host's own before
// "*"), the first --connect-to that matches, and --resolve applied to where --connect-to leads.
func TestRoutes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		resolve, connectTo []string
		proxy              string
		hostport           string
		want               []string // nil: unchanged
	}{
		{"unmapped host", []string{"a.test:80:127.0.0.1"}, nil, "", "b.test:80", nil},
		{"other port", []string{"a.test:80:127.0.0.1"}, nil, "", "a.test:443", nil},
		{"mapped", []string{"a.test:80:127.0.0.1"}, nil, "", "a.test:80", []string{"127.0.0.1:80"}},
		{"case and trailing dot", []string{"a.test:80:127.0.0.1"}, nil, "", "A.Test.:80", []string{"127.0.0.1:80"}},
		{"IPv6 address", []string{"a.test:80:[::1]"}, nil, "", "a.test:80", []string{"[::1]:80"}},
		{"last entry wins", []string{"a.test:80:127.0.0.2", "a.test:80:127.0.0.1"}, nil, "", "a.test:80", []string{"127.0.0.1:80"}},
		{"host beats wildcard", []string{"a.test:80:127.0.0.1", "*:80:127.0.0.2"}, nil, "", "a.test:80", []string{"127.0.0.1:80"}},
		{"wildcard", []string{"a.test:80:127.0.0.1", "*:80:127.0.0.2"}, nil, "", "b.test:80", []string{"127.0.0.2:80"}},
		{"several addresses", []string{"a.test:80:127.0.0.2,127.0.0.1"}, nil, "", "a.test:80", []string{"127.0.0.2:80", "127.0.0.1:80"}},
		{"connect-to", nil, []string{"a.test:80:127.0.0.1:8080"}, "", "a.test:80", []string{"127.0.0.1:8080"}},
		{"connect-to any host", nil, []string{":80::8080"}, "", "b.test:80", []string{"b.test:8080"}},
		{"connect-to any port", nil, []string{"a.test:::8080"}, "", "a.test:443", []string{"a.test:8080"}},
		{"connect-to first wins", nil, []string{"a.test:80:one.test:", "a.test:80:two.test:"}, "", "a.test:80", []string{"one.test:80"}},
		{"connect-to, then resolve", []string{"lb.test:8080:127.0.0.1"}, []string{"a.test:80:lb.test:8080"}, "", "a.test:80", []string{"127.0.0.1:8080"}},
		{"proxy: resolve is the proxy's", []string{"a.test:80:127.0.0.1"}, nil, "http://p.test:3128", "a.test:80", nil},
		{"proxy: connect-to is the tunnel's", nil, []string{"a.test:80:lb.test:8080"}, "http://p.test:3128", "a.test:80", []string{"lb.test:8080"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Resolve: tc.resolve, ConnectTo: tc.connectTo, Proxy: tc.proxy}
			if got := cfg.Connects(tc.hostport); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Connects(%q) = %q, want %q", tc.hostport, got, tc.want)
			}
		})
	}
}

// An entry no URL's host:port is dialled by is named, so that a mistyped port (443 for http
// URLs) does not send the load to the name's real address unnoticed.
func TestUnusedRoutes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		resolve, connectTo []string
		proxy              string
		want               []string
	}{
		{"all used", []string{"a.test:80:127.0.0.1", "lb.test:81:127.0.0.1"}, []string{"b.test:80:lb.test:81"}, "", nil},
		{"wrong port", []string{"a.test:443:127.0.0.1"}, nil, "", []string{"a.test:443:127.0.0.1"}},
		{"replaced by a later entry", []string{"a.test:80:127.0.0.2", "a.test:80:127.0.0.1"}, nil, "", []string{"a.test:80:127.0.0.2"}},
		{"wildcard used by the other host", []string{"a.test:80:127.0.0.1", "*:80:127.0.0.2"}, nil, "", nil},
		{"connect-to behind an earlier one", nil, []string{"a.test:80:x.test:", ":80:y.test:", "c.test:80:z.test:"}, "",
			[]string{"c.test:80:z.test:"}},
		{"resolve through a proxy is the proxy's", []string{"a.test:80:127.0.0.1"}, nil, "http://p.test:3128", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Resolve: tc.resolve, ConnectTo: tc.connectTo, Proxy: tc.proxy}
			if got := cfg.UnusedRoutes([]string{"a.test:80", "b.test:80"}); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("UnusedRoutes = %q, want %q", got, tc.want)
			}
		})
	}
}

// A name --resolve maps is not looked up before the run (it may exist nowhere else), and the
// host --connect-to leads to is.
func TestRoutedHostsAreChecked(t *testing.T) {
	t.Parallel()
	cfg := Config{Resolve: []string{"shop.example:80:127.0.0.1"}, ConnectTo: []string{"cdn.example:443:edge.test:"}}
	targets := []urls.Target{
		{Method: "GET", URL: "http://shop.example/a", Source: "urls.txt:1"},
		{Method: "GET", URL: "https://cdn.example/b.css", Source: "urls.txt:2"},
	}
	var asked []string
	lookup := func(_ context.Context, host string) ([]string, error) {
		asked = append(asked, host)
		return nil, errors.New("no such host")
	}
	err := CheckHosts(context.Background(), cfg.Routed(targets), lookup)
	if want := `urls.txt:2: cannot resolve host "edge.test": no such host`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if !reflect.DeepEqual(asked, []string{"edge.test"}) {
		t.Errorf("looked up %q, want only edge.test", asked)
	}
	if targets[0].URL != "http://shop.example/a" {
		t.Errorf("Routed changed its argument: %q", targets[0].URL)
	}
}

// A name --resolve maps for another port than a URL's is that URL's error, never looked up;
// through a proxy nothing is looked up.
func TestLookUpHostsUnmappedPort(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{
		{Method: "GET", URL: "https://shop.example/a", Source: "urls.txt:1"},
		{Method: "GET", URL: "http://shop.example/b", Source: "urls.txt:2"},
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"resolve", Config{Resolve: []string{"shop.example:443:127.0.0.1", "shop.example:8443:127.0.0.1"}},
			"urls.txt:2: cannot connect to shop.example:80: Resolve maps shop.example for ports 443, 8443 only, and a name it maps is not looked up: add an entry for port 80"},
		{"connect-to a mapped name", Config{Resolve: []string{"shop.example:443:127.0.0.1"}, ConnectTo: []string{"shop.example:80:shop.example:8080"}},
			"urls.txt:2: cannot connect to shop.example:8080: Resolve maps shop.example for port 443 only, and a name it maps is not looked up: add an entry for port 8080"},
		{"through a proxy", Config{Resolve: []string{"shop.example:443:127.0.0.1"}, Proxy: "http://127.0.0.1:3128"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var asked []string
			lookup := func(_ context.Context, host string) ([]string, error) {
				asked = append(asked, host)
				return []string{"192.0.2.1"}, nil
			}
			err := tc.cfg.LookUpHosts(context.Background(), targets, lookup)
			if got := fmt.Sprint(err); tc.want != "" && got != tc.want || tc.want == "" && err != nil {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if len(asked) != 0 {
				t.Errorf("looked up %q, want nothing", asked)
			}
		})
	}
}

// Bad entries fail Validate and New in the words of SettingName.
func TestBadRouteSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		change          func(*Config)
		fields, flagged string
	}{
		{"resolve", func(c *Config) { c.Resolve = []string{"a.test:80:127.0.0.1", "x"} },
			`Resolve: bad entry "x": want HOST:PORT:ADDR`, `--resolve: bad entry "x": want HOST:PORT:ADDR`},
		{"connect-to", func(c *Config) { c.ConnectTo = []string{"a:b"} },
			`ConnectTo: bad entry "a:b": want HOST1:PORT1:HOST2:PORT2`, `--connect-to: bad entry "a:b": want HOST1:PORT1:HOST2:PORT2`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Users: 1, Reps: 1, Timeout: 1e9}
			tc.change(&cfg)
			if err := cfg.Validate(); err == nil || err.Error() != tc.fields || !errors.Is(err, ErrBadRoute) {
				t.Errorf("Validate: %v, want %q", err, tc.fields)
			}
			cfg.SettingName = func(f string) string {
				return map[string]string{"Resolve": "--resolve", "ConnectTo": "--connect-to"}[f]
			}
			if _, err := New(cfg, oneTarget(t, "http://127.0.0.1:1/")); err == nil || err.Error() != tc.flagged {
				t.Errorf("New: %v, want %q", err, tc.flagged)
			}
		})
	}
}

// FuzzParseRoute: no entry makes the parsers panic, and what they accept maps a host:port to
// dialable addresses.
func FuzzParseRoute(f *testing.F) {
	for _, s := range []string{"shop.example:80:127.0.0.1", "*:443:[::1],127.0.0.1", "a:1:b:2", "[::1]:80:[::1]:", ":::", "+a:1:::1", "[:1:2", "a:80:[::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := &routes{}
		if e, err := parseResolve(s); err == nil {
			if e.host == "" || e.port == "" || len(e.addrs) == 0 {
				t.Fatalf("%q parsed to %+v", s, e)
			}
			r.resolve = append(r.resolve, e)
		}
		if e, err := parseConnectTo(s); err == nil {
			r.connect = append(r.connect, e)
		}
		for _, hp := range []string{"a:80", "[::1]:443", "shop.example:8080"} {
			for _, a := range r.dialAddrs(r.connectTo(hp)) {
				if _, _, err := splitHostPortStrict(a); err != nil {
					t.Fatalf("%q maps %s to %q: %v", s, hp, a, err)
				}
			}
		}
	})
}

// splitHostPortStrict splits host:port and checks the port is a number.
func splitHostPortStrict(a string) (host, port string, err error) {
	if host, port, err = net.SplitHostPort(a); err != nil {
		return "", "", err
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", "", err
	}
	return host, port, nil
}

// BenchmarkRoute is what a mapping adds to each new connection: finding its entries and
// making the addresses to dial.
func BenchmarkRoute(b *testing.B) {
	cfg := Config{Resolve: []string{"a.test:80:127.0.0.1", "*:443:127.0.0.2", "shop.example:8080:[::1],127.0.0.1"},
		ConnectTo: []string{"cdn.test:443:edge.test:"}}
	r, err := parseRoutes(&cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(r.dialAddrs(r.connectTo("shop.example:8080"))) != 2 {
			b.Fatal("not mapped")
		}
	}
}
