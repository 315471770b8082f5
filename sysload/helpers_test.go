package sysload

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const textContentType = "text/plain; version=0.0.4; charset=utf-8"

// newLoopbackServer starts a real HTTP server on 127.0.0.1, whatever httptest's default would
// pick, so that no test traffic can leave the machine.
func newLoopbackServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening on loopback: %v", err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// serveBody answers every request with body under contentType, and records the Accept header
// it was sent so tests can check what was asked for.
func serveBody(t *testing.T, contentType, body string, accept *string) *httptest.Server {
	t.Helper()
	return newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if accept != nil {
			*accept = r.Header.Get("Accept")
		}
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write([]byte(body))
	}))
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("reading fixture: %v", err)
	}
	return string(b)
}

// withoutMetric drops every line that mentions name, HELP and TYPE included, as an exporter
// whose collector failed would.
func withoutMetric(exposition, name string) string {
	var kept []string
	for line := range strings.Lines(exposition) {
		if !strings.Contains(line, name+" ") && !strings.Contains(line, name+"{") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "")
}

func newScraper(t *testing.T, url string, timeout time.Duration) Source {
	t.Helper()
	src, err := NewSource(url, &http.Client{Timeout: timeout})
	if err != nil {
		t.Fatalf("NewSource(%q): %v", url, err)
	}
	return src
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
