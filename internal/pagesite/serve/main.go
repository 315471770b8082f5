// Command serve serves pagesite's pages on a loopback address until it is stopped, compressed
// in ENCODING (gzip or br) for the requests that accept it when -encoding is given:
//
//	go run ./internal/pagesite/serve [-encoding ENCODING] 127.0.0.1:PORT
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/webload/webload/internal/pagesite"
)

func main() {
	encoding := flag.String("encoding", "", "compress the answers in this coding (gzip or br) when the request accepts it")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: serve [-encoding gzip|br] 127.0.0.1:PORT")
		os.Exit(2)
	}
	addr := flag.Arg(0)
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(os.Stderr, "serve: %s: give a loopback address, such as 127.0.0.1:8080\n", addr)
		os.Exit(2)
	}
	handler := pagesite.Handler()
	if *encoding != "" {
		if handler, err = pagesite.CompressedHandler(*encoding); err != nil {
			fmt.Fprintf(os.Stderr, "serve: -encoding: %v\n", err)
			os.Exit(2)
		}
	}
	srv := &http.Server{Addr: addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		os.Exit(1)
	}
}
