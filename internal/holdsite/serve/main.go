// Command serve holds every connection made to it on loopback ports, answering nothing, until
// it is stopped or its time is up, and then says how many it accepted:
//
//	go run ./internal/holdsite/serve -for 2m 127.0.0.1:PORT [127.0.0.1:PORT...]
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/webload/webload/internal/holdsite"
)

func main() {
	hold := flag.Duration("for", 2*time.Minute, "stop after this long")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: serve [-for DURATION] 127.0.0.1:PORT...")
		os.Exit(2)
	}
	for _, a := range flag.Args() {
		host, _, err := net.SplitHostPort(a)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			fmt.Fprintf(os.Stderr, "serve: %s: give a loopback address, such as 127.0.0.1:8080\n", a)
			os.Exit(2)
		}
	}
	s, err := holdsite.Start(flag.Args()...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		os.Exit(1)
	}
	defer s.Close()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-stop:
	case <-time.After(*hold):
	}
	// Connections a client closed stay held, so this counts every one it accepted: a
	// measurement can tell the requests that reached it from those still waiting to connect.
	fmt.Printf("accepted %d connections\n", s.Held())
}
