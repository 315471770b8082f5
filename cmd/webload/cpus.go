package main

import "runtime"

// limitCPUs runs webload's own work on at most n CPUs (--cpus) until the function it returns
// is called, which gives back the earlier setting; n of 0 leaves Go's, every CPU the process
// may use. Go runs goroutines on as many threads: with more of them than the work needs, a
// thread woken for each answer hands it to another, and the client's CPU per request grows,
// taken from a server on the same machine.
func limitCPUs(n int) (restore func()) {
	if n <= 0 {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(prev) }
}
