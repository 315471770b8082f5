package faultsite

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
)

func TestBrokenEndpointsRawBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		path    string
		want    string // every byte the client receives
		wantErr func(error) bool
		errName string
	}{
		{"reset-before", "/reset-before", "", isReset, "ECONNRESET"},
		{"reset-after-headers", "/reset-after-headers",
			"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n0123456789", isReset, "ECONNRESET"},
		{"bad-status", "/bad-status",
			"HTTP/1.1 2x0 Broken\r\nContent-Length: 2\r\n\r\nok", isEOF, "EOF"},
		{"garbage", "/garbage", "this is not HTTP\r\n\r\n", isEOF, "EOF"},
		{"bad-chunked", "/bad-chunked",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", isEOF, "EOF"},
		{"short-body", "/short-body",
			"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789", isEOF, "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			c := rawRequest(t, s.Addr(), tt.path)
			got, err := readFor(c, 3*time.Second)
			if string(got) != tt.want {
				t.Errorf("received %q, want %q", got, tt.want)
			}
			if !tt.wantErr(err) {
				t.Errorf("read ended with %v, want %s", err, tt.errName)
			}
			if h := s.Hits(tt.path); h != 1 {
				t.Errorf("Hits = %d, want 1", h)
			}
		})
	}
}

func isEOF(err error) bool { return err == io.EOF }

// TestBrokenEndpointsHTTPClient records what a Go HTTP client makes of each fault, which
// is what webload's own error classification has to cope with.
func TestBrokenEndpointsHTTPClient(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		path    string
		check   func(error) bool // applied to the error of Get, or else of reading the body
		wantErr string
	}{
		{"reset-before", "/reset-before", isReset, "ECONNRESET"},
		{"reset-after-headers", "/reset-after-headers", isReset, "ECONNRESET"},
		{"bad-status", "/bad-status", contains(`malformed HTTP status code "2x0"`), "malformed status 2x0"},
		{"garbage", "/garbage", contains(`malformed HTTP status code "is"`), "malformed status \"is\""},
		{"bad-chunked", "/bad-chunked", contains("invalid byte in chunk length"), "bad chunk length"},
		{"short-body", "/short-body", is(io.ErrUnexpectedEOF), "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			// Without keep-alives the transport cannot blame a reused connection and retry,
			// so the error seen is that of the one request.
			tr := &http.Transport{DisableKeepAlives: true}
			t.Cleanup(tr.CloseIdleConnections)
			resp, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Get(s.URL(tt.path))
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if err == nil || !tt.check(err) {
				t.Errorf("error %v, want %s", err, tt.wantErr)
			}
		})
	}
}

func contains(s string) func(error) bool {
	return func(err error) bool { return err != nil && strings.Contains(err.Error(), s) }
}

func is(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

func TestHang(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	c := rawRequest(t, s.Addr(), "/hang")
	got, err := readFor(c, 300*time.Millisecond)
	if len(got) != 0 || !isTimeout(err) {
		t.Errorf("received %q, %v; want nothing until the read deadline", got, err)
	}
	if h := s.Hits("/hang"); h != 1 {
		t.Errorf("Hits = %d, want 1", h)
	}
}

func TestStallBody(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	c := rawRequest(t, s.Addr(), "/stall-body")
	// The head and the first 100 bytes go out in one flush: wait for them as long as a busy
	// machine needs, then check that nothing follows. The short read after them can only
	// miss bytes that a broken site sends late; it can never fail a site that stalls.
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.ContentLength != 100000 {
		t.Errorf("status %d, Content-Length %d; want 200 and 100000", resp.StatusCode, resp.ContentLength)
	}
	first := make([]byte, 100)
	if n, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatalf("%d body bytes, then %v; want 100 before the stall", n, err)
	}
	_ = c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	more, err := io.ReadAll(resp.Body)
	if len(more) != 0 || !isTimeout(err) {
		t.Errorf("after 100 bytes: %d more, %v; want the stall (nothing until the read deadline)", len(more), err)
	}
}

func TestTrickle(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	s := startSite(t)
	start := time.Now()
	c := rawRequest(t, s.Addr(), "/trickle")
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.ContentLength != 1000 {
		t.Fatalf("status %d, Content-Length %d; want 200 and 1000", resp.StatusCode, resp.ContentLength)
	}
	// Bytes go out at 0 s, 1 s, 2 s... after the request, the first in the same flush as the
	// headers. How many a 2.5 s read sees depends on how late a busy machine runs either
	// side, so the checks are the physical ones: the first byte is there, and no more than
	// one a second since the request was sent.
	_ = c.SetReadDeadline(time.Now().Add(2500 * time.Millisecond))
	got, err := io.ReadAll(resp.Body)
	most := 1 + int(time.Since(start)/time.Second)
	if !isTimeout(err) {
		t.Errorf("read ended with %v, want the read deadline", err)
	}
	if len(got) < 1 || len(got) > most || strings.Trim(string(got), "t") != "" {
		t.Errorf("received %q, want a trickle of 1 to %d bytes (one a second)", got, most)
	}
}
