package loader

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// tlsServer is a loopback HTTPS server that counts requests and remembers what the last TLS
// handshake told it.
type tlsServer struct {
	*httptest.Server
	hits       atomic.Int64
	mu         sync.Mutex
	serverName string // SNI sent by the client
	clientCN   string // common name of the client's certificate
}

// newTLSServer starts an HTTPS server on 127.0.0.1 with cfg (nil: httptest's certificate for
// 127.0.0.1 and example.com, no client certificates).
func newTLSServer(t *testing.T, cfg *tls.Config) *tlsServer {
	t.Helper()
	s := &tlsServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		s.serverName = r.TLS.ServerName
		if len(r.TLS.PeerCertificates) > 0 {
			s.clientCN = r.TLS.PeerCertificates[0].Subject.CommonName
		}
		s.mu.Unlock()
		io.WriteString(w, "secret page")
	}))
	// Failed handshakes are what these tests provoke; the server need not log each one.
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.TLS = cfg
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func (s *tlsServer) seen() (serverName, clientCN string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.serverName, s.clientCN
}

// oneTarget is a single GET target.
func oneTarget(t *testing.T, url string) []urls.Target {
	t.Helper()
	tg, err := urls.ParseLine(url, urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return []urls.Target{tg}
}

// checkResults asserts that every result has the wanted kind (and a 200 when it is ErrNone).
func checkResults(t *testing.T, results []Result, n int, want ErrKind) {
	t.Helper()
	if len(results) != n {
		t.Fatalf("got %d results, want %d", len(results), n)
	}
	for _, r := range results {
		if r.Err != want || (want == ErrNone && r.Status != 200) {
			t.Fatalf("result %+v: want kind %v", r, want)
		}
	}
}

func TestServerVerification(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		insecure   bool
		cacert     bool // trust the server's own certificate
		want       ErrKind
		wantSample string
	}{
		{name: "verified by default", want: ErrTLS, wantSample: "certificate signed by unknown authority"},
		{name: "insecure skips verification", insecure: true, want: ErrNone},
		{name: "cacert trusts the server", cacert: true, want: ErrNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newTLSServer(t, nil)
			cfg := Config{Users: 2, Reps: 3, Insecure: tc.insecure}
			if tc.cacert {
				cfg.CACert = writePEM(t, t.TempDir(), "ca.pem", "CERTIFICATE", srv.Certificate().Raw)
			}
			results, out := run(t, cfg, oneTarget(t, srv.URL+"/"))
			checkResults(t, results, 6, tc.want)
			if tc.want != ErrNone {
				if got := srv.hits.Load(); got != 0 {
					t.Errorf("server saw %d requests, want none", got)
				}
				// A failed handshake leaves nothing to reuse: every request dials anew.
				if out.Connections != 6 {
					t.Errorf("opened %d connections, want 6", out.Connections)
				}
				if s := out.ErrorSamples[tc.want]; !strings.Contains(s, tc.wantSample) {
					t.Errorf("sample %q, want it to mention %q", s, tc.wantSample)
				}
				return
			}
			if got := srv.hits.Load(); got != 6 {
				t.Errorf("server saw %d requests, want 6", got)
			}
			if out.Connections < 1 || out.Connections > 2 {
				t.Errorf("opened %d connections, want 1..2 (keep-alive)", out.Connections)
			}
		})
	}
}

func TestClientCertificate(t *testing.T) {
	t.Parallel()
	ca := newTestCA(t)
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	dir := t.TempDir()
	_, clientDER, clientKey := ca.issue(t, "load-client")
	certFile := writePEM(t, dir, "client.pem", "CERTIFICATE", clientDER)
	keyFile := writeKey(t, dir, "client-key.pem", clientKey)
	_, strangerDER, strangerKey := newTestCA(t).issue(t, "stranger")
	strangerCert := writePEM(t, dir, "stranger.pem", "CERTIFICATE", strangerDER)
	strangerKeyFile := writeKey(t, dir, "stranger-key.pem", strangerKey)

	// With TLS 1.3 the server judges the client's certificate after the client has finished
	// its handshake: the refusal is an alert on the first read, which fasthttp reports as the
	// connection closed before the response (or, if the server's close wins the race with the
	// request, a reset). With TLS 1.2 it ends the handshake itself.
	refusedLate := []ErrKind{ErrClosed, ErrReset}
	tests := []struct {
		name       string
		cert, key  string
		maxVersion uint16
		wantKinds  []ErrKind // one of these for every request; nil: success
		wantCN     string
	}{
		{name: "no client certificate", wantKinds: refusedLate},
		{name: "no client certificate, TLS 1.2", maxVersion: tls.VersionTLS12, wantKinds: []ErrKind{ErrTLS}},
		{name: "certificate from another CA", cert: strangerCert, key: strangerKeyFile, wantKinds: refusedLate},
		{name: "certificate from another CA, TLS 1.2", cert: strangerCert, key: strangerKeyFile,
			maxVersion: tls.VersionTLS12, wantKinds: []ErrKind{ErrTLS}},
		{name: "client certificate", cert: certFile, key: keyFile, wantCN: "load-client"},
		{name: "client certificate, TLS 1.2", cert: certFile, key: keyFile, maxVersion: tls.VersionTLS12, wantCN: "load-client"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newTLSServer(t, &tls.Config{
				ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MaxVersion: tc.maxVersion,
			})
			cacert := writePEM(t, t.TempDir(), "server.pem", "CERTIFICATE", srv.Certificate().Raw)
			cfg := Config{Users: 2, Reps: 3, CACert: cacert, ClientCert: tc.cert, ClientKey: tc.key, Timeout: 30 * time.Second}
			results, out := run(t, cfg, oneTarget(t, srv.URL+"/"))
			if tc.wantKinds == nil {
				checkResults(t, results, 6, ErrNone)
				if got := srv.hits.Load(); got != 6 {
					t.Errorf("server saw %d requests, want 6", got)
				}
				if _, cn := srv.seen(); cn != tc.wantCN {
					t.Errorf("server saw client certificate %q, want %q", cn, tc.wantCN)
				}
				return
			}
			if len(results) != 6 {
				t.Fatalf("got %d results, want 6", len(results))
			}
			for _, r := range results {
				if !slices.Contains(tc.wantKinds, r.Err) {
					t.Fatalf("result %+v: want one of %v (samples %v)", r, tc.wantKinds, out.ErrorSamples)
				}
			}
			if got := srv.hits.Load(); got != 0 {
				t.Errorf("server saw %d requests, want none", got)
			}
		})
	}
}

func TestServerName(t *testing.T) {
	t.Parallel()
	if addrs, err := net.LookupHost("localhost"); err != nil || !slices.Contains(addrs, "127.0.0.1") {
		t.Skipf("localhost does not resolve to 127.0.0.1 here: %v %v", addrs, err)
	}
	ca := newTestCA(t)
	leaf, _, _ := ca.issue(t, "localhost", "localhost") // valid for the name only, not for 127.0.0.1
	cacert := writePEM(t, t.TempDir(), "ca.pem", "CERTIFICATE", ca.der)
	tests := []struct {
		name       string
		host       string
		want       ErrKind
		wantSNI    string
		wantSample string
	}{
		{name: "the name in the URL is verified and sent", host: "localhost", want: ErrNone, wantSNI: "localhost"},
		{name: "an IP address is not the certificate's name", host: "127.0.0.1", want: ErrTLS,
			wantSample: "x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newTLSServer(t, &tls.Config{Certificates: []tls.Certificate{leaf}})
			_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
			results, out := run(t, Config{Users: 1, Reps: 3, CACert: cacert}, oneTarget(t, "https://"+tc.host+":"+port+"/"))
			checkResults(t, results, 3, tc.want)
			if tc.want != ErrNone {
				if s := out.ErrorSamples[tc.want]; !strings.Contains(s, tc.wantSample) {
					t.Errorf("sample %q, want it to mention %q", s, tc.wantSample)
				}
				return
			}
			if sni, _ := srv.seen(); sni != tc.wantSNI {
				t.Errorf("server saw SNI %q, want %q", sni, tc.wantSNI)
			}
			if got := srv.hits.Load(); got != 3 {
				t.Errorf("server saw %d requests, want 3", got)
			}
		})
	}
}

// A server that accepts and never answers the handshake must not hold a request past the
// timeout: fasthttp alone would wait forever (see handshake).
func TestTLSHandshakeTimeout(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never answered
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	timeout := 200 * time.Millisecond
	results, _ := run(t, Config{Users: 2, Reps: 2, Insecure: true, Timeout: timeout}, oneTarget(t, "https://"+ln.Addr().String()+"/"))
	checkResults(t, results, 4, ErrTimeout)
	// Never before the timeout; the server never answers, so the generous upper bound only
	// tells the timeout from some other end, whatever the machine's load.
	for _, r := range results {
		if r.Latency < timeout || r.Latency > timeout+10*time.Second {
			t.Errorf("timed out after %v, want %v", r.Latency, timeout)
		}
	}
}

func TestTLSFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := newTestCA(t)
	_, der, key := ca.issue(t, "load-client")
	cert := writePEM(t, dir, "cert.pem", "CERTIFICATE", der)
	keyFile := writeKey(t, dir, "key.pem", key)
	otherKey := writeKey(t, dir, "other-key.pem", newKey(t))
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pem")
	tests := []struct {
		name    string
		cfg     Config
		wantIs  error
		wantMsg string
	}{
		{name: "missing --cacert file", cfg: Config{CACert: missing}, wantIs: fs.ErrNotExist,
			wantMsg: "reading CACert " + missing + ": no such file or directory"},
		{name: "--cacert without a certificate", cfg: Config{CACert: notPEM},
			wantMsg: "reading CACert " + notPEM + ": no PEM certificate in it"},
		{name: "cert without key", cfg: Config{ClientCert: cert}, wantIs: ErrCertNoKey,
			wantMsg: "ClientCert and ClientKey must be given together"},
		{name: "key without cert", cfg: Config{ClientKey: keyFile}, wantIs: ErrCertNoKey},
		{name: "missing --key file", cfg: Config{ClientCert: cert, ClientKey: missing}, wantIs: fs.ErrNotExist,
			wantMsg: "reading ClientKey " + missing},
		{name: "key of another certificate", cfg: Config{ClientCert: cert, ClientKey: otherKey},
			wantMsg: "loading the client certificate (ClientCert " + cert + ", ClientKey " + otherKey + "): tls: private key does not match public key"},
		{name: "all fine", cfg: Config{CACert: writePEM(t, dir, "ca.pem", "CERTIFICATE", ca.der), ClientCert: cert, ClientKey: keyFile}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.cfg.Users, tc.cfg.Reps, tc.cfg.Timeout = 1, 1, time.Second
			_, err := New(tc.cfg, oneTarget(t, "https://127.0.0.1:1/"))
			if tc.wantIs == nil && tc.wantMsg == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("New succeeded, want an error")
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("error %q is not %v", err, tc.wantIs)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %q, want it to contain %q", err, tc.wantMsg)
			}
		})
	}
}

func TestClassifyTLS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
	}{
		{"verification", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}},
		{"unknown authority", x509.UnknownAuthorityError{}},
		{"hostname", x509.HostnameError{Certificate: &x509.Certificate{}, Host: "a"}},
		{"expired", x509.CertificateInvalidError{Reason: x509.Expired}},
		{"not TLS", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}},
		{"alert", tls.AlertError(42)},
		{"alert from the server", &net.OpError{Op: "remote error", Err: errors.New("tls: certificate required")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := classify(tc.err); got != ErrTLS {
				t.Errorf("classify(%v) = %v, want tls", tc.err, got)
			}
		})
	}
}
