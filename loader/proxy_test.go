package loader

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// connectProxy is a loopback HTTP proxy that only tunnels (CONNECT), as the loader uses it.
type connectProxy struct {
	ln      net.Listener
	auth    string       // the Proxy-Authorization it wants; empty: none
	to      string       // where every tunnel goes, whatever the CONNECT target; empty: the target
	tunnels atomic.Int64 // tunnels opened
	refused atomic.Int64 // CONNECTs answered 407

	mu      sync.Mutex
	targets map[string]int // CONNECT targets seen
	conns   []net.Conn
}

func newConnectProxy(t *testing.T, auth string) *connectProxy {
	t.Helper()
	return startProxy(t, &connectProxy{auth: auth})
}

// newRoutingProxy tunnels every CONNECT to the loopback address to, so tests can use host
// names no resolver knows without any lookup leaving the machine.
func newRoutingProxy(t *testing.T, to string) *connectProxy {
	t.Helper()
	return startProxy(t, &connectProxy{to: to})
}

func startProxy(t *testing.T, p *connectProxy) *connectProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.ln, p.targets = ln, map[string]int{}
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
	return p
}

func (p *connectProxy) url(userinfo string) string {
	if userinfo != "" {
		userinfo += "@"
	}
	return "http://" + userinfo + p.ln.Addr().String()
}

// track keeps conn so that the test's cleanup closes it.
func (p *connectProxy) track(conn net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, conn)
}

func (p *connectProxy) serve() {
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.track(conn)
		go p.tunnel(conn)
	}
}

func (p *connectProxy) tunnel(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	if req.Method != http.MethodConnect {
		io.WriteString(conn, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
		return
	}
	if p.auth != "" && req.Header.Get("Proxy-Authorization") != p.auth {
		p.refused.Add(1)
		io.WriteString(conn, "HTTP/1.1 407 Proxy Authentication Required\r\n"+
			"Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 6\r\n\r\ndenied")
		return
	}
	p.mu.Lock()
	p.targets[req.Host]++
	p.mu.Unlock()
	to := req.Host
	if p.to != "" {
		to = p.to
	}
	target, err := net.DialTimeout("tcp", to, 5*time.Second)
	if err != nil {
		io.WriteString(conn, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		return
	}
	p.track(target)
	defer target.Close()
	p.tunnels.Add(1)
	io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	done := make(chan struct{}, 2)
	go func() { io.Copy(target, br); done <- struct{}{} }() // br: bytes read ahead belong to the target
	go func() { io.Copy(conn, target); done <- struct{}{} }()
	<-done // either side closing ends the tunnel; the deferred closes end the other copy
}

func (p *connectProxy) seenTargets() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for k, v := range p.targets {
		out[k] = v
	}
	return out
}

func TestProxy(t *testing.T) {
	t.Parallel()
	const user, pass = "load", "p@ss:word"
	// What the proxy must see for http://load:p%40ss%3Aword@...: the decoded credentials.
	auth := "Basic bG9hZDpwQHNzOndvcmQ="
	tests := []struct {
		name        string
		https       bool
		proxyAuth   string // what the proxy demands
		userinfo    string // in the --proxy URL
		proxyDown   bool
		wantKind    ErrKind
		wantSample  string
		wantTunnels bool // one tunnel per connection, to the target
	}{
		{name: "https through the tunnel", https: true, wantTunnels: true},
		{name: "https with credentials", https: true, proxyAuth: auth, userinfo: user + ":p%40ss%3Aword", wantTunnels: true},
		{name: "http through the tunnel", wantTunnels: true},
		{name: "http with credentials", proxyAuth: auth, userinfo: user + ":p%40ss%3Aword", wantTunnels: true},
		{name: "wrong credentials", https: true, proxyAuth: auth, userinfo: user + ":wrong", wantKind: ErrOther,
			wantSample: "refused the tunnel to 127.0.0.1:"},
		{name: "no credentials", proxyAuth: auth, wantKind: ErrOther, wantSample: ": 407 Proxy Authentication Required"},
		{name: "proxy down", https: true, proxyDown: true, wantKind: ErrRefused, wantSample: "connecting to the proxy: error when dialing 127.0.0.1:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var base string
			var hits func() int64
			cfg := Config{Users: 3, Reps: 4, Timeout: 30 * time.Second} // a hang guard: no case waits for it
			if tc.https {
				srv := newTLSServer(t, nil)
				base, hits = srv.URL, srv.hits.Load
				// Verified inside the tunnel: the proxy sees only ciphertext.
				cfg.CACert = writePEM(t, t.TempDir(), "ca.pem", "CERTIFICATE", srv.Certificate().Raw)
			} else {
				srv := newHitServer(t, nil)
				base, hits = srv.URL, func() int64 { return int64(srv.count("GET /x")) }
			}
			px := newConnectProxy(t, tc.proxyAuth)
			cfg.Proxy = px.url(tc.userinfo)
			if tc.proxyDown {
				cfg.Proxy = "http://" + closedPort(t)
			}
			results, out := run(t, cfg, oneTarget(t, base+"/x"))
			checkResults(t, results, 12, tc.wantKind)
			target := strings.TrimPrefix(strings.TrimPrefix(base, "https://"), "http://")
			if tc.wantKind != ErrNone {
				if s := out.ErrorSamples[tc.wantKind]; !strings.Contains(s, tc.wantSample) {
					t.Errorf("sample %q, want it to mention %q", s, tc.wantSample)
				}
				if tc.wantKind == ErrOther {
					if s := out.ErrorSamples[tc.wantKind]; !strings.Contains(s, "407") || strings.Contains(s, "denied") {
						t.Errorf("sample %q, want the proxy's status and not its body", s)
					}
					if got := px.refused.Load(); got != 12 {
						t.Errorf("proxy refused %d CONNECTs, want 12", got)
					}
				}
				if got := hits(); got != 0 {
					t.Errorf("server saw %d requests, want none", got)
				}
				if got := px.tunnels.Load(); got != 0 {
					t.Errorf("proxy opened %d tunnels, want none", got)
				}
				return
			}
			if got := hits(); got != 12 {
				t.Errorf("server saw %d requests, want 12", got)
			}
			// Keep-alive: each tunnel is one connection, reused; at most one per user.
			tunnels := px.tunnels.Load()
			if tunnels != out.Connections || tunnels < 1 || tunnels > 3 {
				t.Errorf("proxy opened %d tunnels for %d connections, want them equal and 1..3", tunnels, out.Connections)
			}
			if got := px.seenTargets(); len(got) != 1 || got[target] != int(tunnels) {
				t.Errorf("proxy saw CONNECT targets %v, want %d to %s", got, tunnels, target)
			}
		})
	}
}

func TestBadProxyURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, proxy, wantMsg string
	}{
		{"https scheme", "https://127.0.0.1:3128", "the scheme must be http"},
		{"no scheme", "proxy.test:3128", "the scheme must be http"},
		{"no port", "http://proxy.test", "it needs a host and a port"},
		{"no host", "http://:3128", "it needs a host and a port"},
		{"a path", "http://proxy.test:3128/p", "it must not have a path"},
		{"unparsable, with a password", "http://u:secret@proxy.test:3128/%zz", "invalid URL escape"},
		{"password kept out of the message", "ftp://u:secret@proxy.test:3128", "the scheme must be http"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Users: 1, Reps: 1, Timeout: time.Second, Proxy: tc.proxy}
			_, err := New(cfg, oneTarget(t, "http://127.0.0.1:1/"))
			if !errors.Is(err, ErrBadProxy) {
				t.Fatalf("New: %v, want %v", err, ErrBadProxy)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "bad Proxy ") || !strings.Contains(msg, tc.wantMsg) {
				t.Errorf("error %q, want it to name the Proxy setting and say %q", msg, tc.wantMsg)
			}
			if strings.Contains(msg, "secret") {
				t.Errorf("error %q shows the password", msg)
			}
		})
	}
}

func TestProxyAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		answer  string // the proxy's answer to CONNECT, then "hello" from the target; empty: it hangs up
		wantErr string // the whole message; empty: the tunnel opens and "hello" is read through it
	}{
		{name: "HTTP/1.0 200", answer: "HTTP/1.0 200 OK\r\n\r\n"},
		{name: "other 2xx", answer: "HTTP/1.1 204 No Content\r\n\r\n"},
		{name: "target bytes in the same segment", answer: "HTTP/1.1 200 OK\r\nVia: test\r\n\r\n"},
		{name: "403", answer: "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n",
			wantErr: "proxy proxy.test:3128 refused the tunnel to example.test:80: 403 Forbidden"},
		{name: "not HTTP", answer: "SSH-2.0-OpenSSH\r\n\r\n",
			wantErr: "proxy proxy.test:3128 answered CONNECT example.test:80 with something other than HTTP"},
		{name: "closed without an answer", wantErr: "proxy proxy.test:3128: reading the answer to CONNECT example.test:80: EOF"},
	}
	p, err := parseProxy("http://u:p@proxy.test:3128", "Proxy")
	if err != nil {
		t.Fatal(err)
	}
	const wantRequest = "CONNECT example.test:80 HTTP/1.1\r\nHost: example.test:80\r\n" +
		"Proxy-Authorization: Basic dTpw\r\n\r\n"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			client, server := net.Pipe()
			defer client.Close()
			request := make(chan string, 1)
			go func() {
				defer server.Close()
				var req strings.Builder
				br := bufio.NewReader(server)
				for {
					line, err := br.ReadString('\n')
					req.WriteString(line)
					if err != nil || line == "\r\n" {
						break
					}
				}
				request <- req.String()
				if tc.answer != "" {
					// One write: the target's first bytes come with the proxy's answer.
					io.WriteString(server, tc.answer+"hello")
				}
			}()
			client.SetDeadline(time.Now().Add(5 * time.Second))
			conn, err := p.connect(client, "example.test:80")
			if got := <-request; got != wantRequest {
				t.Errorf("proxy got %q, want %q", got, wantRequest)
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("connect: %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(conn)
			if err != nil || string(got) != "hello" {
				t.Errorf("read %q, %v through the tunnel, want \"hello\"", got, err)
			}
		})
	}
}
