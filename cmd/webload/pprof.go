package main

import (
	"context"
	"net/http"
	"net/http/pprof"

	"github.com/webload/webload/run"
)

// servePprof exposes Go's profiler on a loopback address while the run lasts (--pprof), so a
// long run's CPU, memory and goroutines can be looked at from outside.
func servePprof(ctx context.Context, addr string) (stop func(), err error) {
	return run.ServeLoopback(ctx, "pprof", addr, pprofHandler())
}

// pprofHandler serves the profiles, but not /debug/pprof/cmdline: webload's command line holds
// credentials (-H "Authorization: ...", passwords in URLs) that no output may show. Left to
// the index, that path answers 404 as an unknown profile.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
