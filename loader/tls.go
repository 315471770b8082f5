package loader

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"time"

	"github.com/webload/webload/internal/inputfile"
)

// tlsConfig builds the run's TLS settings from cfg, reading the PEM files it names. nil means
// nothing was asked for: Go's defaults then verify servers against the system's roots, and
// fasthttp keeps them (a nil TLSConfig never turns verification off).
func tlsConfig(cfg *Config) (*tls.Config, error) {
	if !cfg.Insecure && cfg.CACert == "" && cfg.ClientCert == "" && cfg.ClientKey == "" {
		return nil, nil //nolint:nilnil // nil is Go's default configuration
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.Insecure {
		tc.InsecureSkipVerify = true //nolint:gosec // asked for with --insecure
	}
	if cfg.CACert != "" {
		pem, err := readPEM(cfg.name("CACert"), cfg.CACert)
		if err != nil {
			return nil, err
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool() // no system roots here: trust only the given ones
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("reading %s %s: no PEM certificate in it", cfg.name("CACert"), cfg.CACert)
		}
		tc.RootCAs = pool
	}
	if cfg.ClientCert != "" || cfg.ClientKey != "" {
		if cfg.ClientCert == "" || cfg.ClientKey == "" {
			return nil, cfg.certNoKey()
		}
		certPEM, err := readPEM(cfg.name("ClientCert"), cfg.ClientCert)
		if err != nil {
			return nil, err
		}
		keyPEM, err := readPEM(cfg.name("ClientKey"), cfg.ClientKey)
		if err != nil {
			return nil, err
		}
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, fmt.Errorf("loading the client certificate (%s %s, %s %s): %w",
				cfg.name("ClientCert"), cfg.ClientCert, cfg.name("ClientKey"), cfg.ClientKey, err)
		}
		// Sent whenever a server asks, as curl does. With Certificates instead, Go sends
		// nothing when the server's list of acceptable CAs does not name the certificate's
		// issuer, and the run fails with a puzzling "certificate required".
		tc.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			return &pair, nil
		}
	}
	return tc, nil
}

// sessionCacheSize is how many TLS sessions a run keeps: one per server name (or address), so
// it bounds the hosts that resume, not the users.
const sessionCacheSize = 256

// withSessionCache gives tc (nil: Go's defaults) the run's one TLS session cache, so that a
// new connection to a host resumes the session of an earlier one (TLS 1.3 tickets, TLS 1.2
// session tickets) instead of paying a full handshake, as a browser does and as siege does
// while its ssl-timeout lasts. Without it a "Connection: close" run over https measures the
// server's public-key operations, not its pages.
//
// One cache for the run, not one per user: the connections themselves are the run's, shared
// by its users (a connection one user opened serves another's next request), and the dialer
// cannot tell whose request a connection is for. Safe for concurrent use.
func withSessionCache(tc *tls.Config) *tls.Config {
	if tc == nil {
		tc = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	tc.ClientSessionCache = tls.NewLRUClientSessionCache(sessionCacheSize)
	return tc
}

// readPEM reads the file of a setting; the error says which setting and file.
func readPEM(setting, path string) ([]byte, error) {
	b, err := inputfile.ReadFile(path, inputfile.Settings)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // "open ca.pem: " would repeat the path
		}
		return nil, fmt.Errorf("reading %s %s: %w", setting, path, err)
	}
	return b, nil
}

// certNoKey is ErrCertNoKey in the words of SettingName.
func (c *Config) certNoKey() error {
	return c.settingError(ErrCertNoKey, "%s and %s must be given together", "ClientCert", "ClientKey")
}

// hostTLSConfig is the TLS configuration for connections to addr (host:port): base, or Go's
// defaults for nil, with the server name for SNI and verification taken from the host as
// fasthttp would. Built once per host, not per connection.
func hostTLSConfig(base *tls.Config, addr string) (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if base != nil {
		tc = base.Clone()
	}
	if tc.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		switch {
		case err == nil:
			// An IP address is verified against the certificate's IP SANs; Go sends no SNI for it.
			tc.ServerName = host
		case !tc.InsecureSkipVerify:
			return nil, fmt.Errorf("cannot tell the TLS server name of %q: %w", addr, err)
		}
	}
	return tc, nil
}

// handshake runs the TLS client handshake on conn, bounded by deadline (none when zero).
//
// fasthttp would run it itself, but without a WriteTimeout it hands back an unstarted
// tls.Client and the handshake happens inside the first request's write, under a write
// deadline only: a server that accepts and then says nothing would hold that request forever,
// past --timeout. Here the deadline covers reads too, and the handshake, the deepest call
// chain of a connection, runs on the dial goroutine rather than growing the user's stack.
func handshake(conn net.Conn, tc *tls.Config, addr string, deadline time.Time) (net.Conn, error) {
	tlsConn := tls.Client(conn, tc)
	if err := tlsConn.SetDeadline(deadline); err != nil {
		return nil, err
	}
	if err := tlsConn.Handshake(); err != nil {
		return nil, fmt.Errorf("tls handshake with %s: %w", addr, err)
	}
	if err := tlsConn.SetDeadline(time.Time{}); err != nil {
		return nil, err
	}
	return tlsConn, nil
}
