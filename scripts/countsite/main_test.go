package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The site counts every request it answers, and says so once it has stopped.
func TestServeCounts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serve(ctx, "127.0.0.1:0", w); w.Close() }()
	lines := bufio.NewScanner(r)
	if !lines.Scan() {
		t.Fatalf("no first line: %v", <-done)
	}
	base := strings.TrimPrefix(lines.Text(), "serving the sample shop on ")
	for _, path := range []string{"/", "/cart", "/nope"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	cancel()
	if !lines.Scan() || lines.Text() != "served 3 requests" {
		t.Errorf("last line %q, want %q", lines.Text(), "served 3 requests")
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// Anything but a loopback address is refused.
func TestServeLoopbackOnly(t *testing.T) {
	t.Parallel()
	err := serve(context.Background(), "0.0.0.0:18090", io.Discard)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("got %v, want a refusal naming loopback", err)
	}
}
