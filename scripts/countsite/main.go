// Command countsite serves the sample shop on a loopback address and counts every request it
// answers, so that a script can check a load generator's count against the server's own
// (scripts/slurm-e2e.sh). It stops on SIGTERM or SIGINT, or after -max-time, waits for the
// requests in progress, and then prints "served N requests".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/webload/webload/internal/shop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18090", "loopback `ADDRESS` to listen on")
	maxTime := flag.Duration("max-time", 10*time.Minute, "stop after `DURATION` even without a signal")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *maxTime)
	defer cancel()
	if err := serve(ctx, *addr, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "countsite: %v\n", err)
		os.Exit(1)
	}
}

// serve answers with the shop on addr until ctx ends, then reports the count on out.
func serve(ctx context.Context, addr string, out io.Writer) error {
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %q: want a loopback address such as 127.0.0.1:18090", addr)
	}
	// The shop listens on a port of its own too; only its handler is used.
	site, err := shop.Start(shop.Config{Seed: 1})
	if err != nil {
		return err
	}
	defer site.Close()
	var served atomic.Int64
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			served.Add(1)
			site.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(out, "serving the sample shop on http://%s\n", ln.Addr())
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(out, "served %d requests\n", served.Load())
	return nil
}
