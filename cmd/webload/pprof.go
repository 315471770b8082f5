package main

import (
	"context"
	"net/http"
	"net/http/pprof"
)

// servePprof exposes Go's profiler on a loopback address while the run lasts (--pprof), so a
// long run's CPU, memory and goroutines can be looked at from outside.
func servePprof(ctx context.Context, addr string) (stop func(), err error) {
	ln, err := listenLoopback("pprof", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return serveHTTP(ctx, ln, mux), nil
}
