// Command serve serves pagesite's pages on a loopback address until it is stopped:
//
//	go run ./internal/pagesite/serve 127.0.0.1:PORT
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/webload/webload/internal/pagesite"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: serve 127.0.0.1:PORT")
		os.Exit(2)
	}
	host, _, err := net.SplitHostPort(os.Args[1])
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(os.Stderr, "serve: %s: give a loopback address, such as 127.0.0.1:8080\n", os.Args[1])
		os.Exit(2)
	}
	srv := &http.Server{Addr: os.Args[1], Handler: pagesite.Handler(), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		os.Exit(1)
	}
}
