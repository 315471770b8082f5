package faultsite

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"testing"
	"time"
)

// startSite starts a site that the test's cleanup closes, failing the test if Close
// reports an error or waits for a handler: every test doubles as a check that Close is prompt
// (the bound is generous, far below the handlers' minute, so a busy machine cannot fail it).
func startSite(t *testing.T) *Site {
	t.Helper()
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		start := time.Now()
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("Close took %v", d)
		}
	})
	return s
}

// newClient has its own transport, so that idle connections of one test neither serve
// nor outlive another test's requests.
func newClient(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// get fetches a URL and returns the status and the whole body.
func get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", url, err)
	}
	return resp, string(body)
}

// rawRequest dials the site and writes a GET by hand, so that a test sees exactly the
// bytes the site answers with, however broken they are.
func rawRequest(t *testing.T, addr, path string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr); err != nil {
		t.Fatal(err)
	}
	return c
}

// readFor reads until the connection ends or d passes, returning what arrived and the
// error that ended it (io.EOF for a FIN, ECONNRESET for an RST, a timeout for silence).
func readFor(c net.Conn, d time.Duration) ([]byte, error) {
	if err := c.SetReadDeadline(time.Now().Add(d)); err != nil {
		return nil, err
	}
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			return got, err
		}
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// isTimeout, isReset and isRefused name the three ways a client learns the server is
// not answering, in the terms a test asserts them.
func isTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }
func isReset(err error) bool   { return errors.Is(err, syscall.ECONNRESET) }
func isRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }
