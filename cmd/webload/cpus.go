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

// cpusFor is the CPUs a run's own work gets, 0 for all: --cpus when
// it was given, else all of them, or half of them, at least one, over HTTP/2. There one
// connection's reader wakes the users of every answer it reads, and on more threads each
// wake-up hands an answer from one thread to another: on 2 CPUs beside nginx, one thread sent
// 1.08 to 1.39 times the requests a second that two did, at 0.78 to 0.92 times the CPU per
// request, on the small file (with and without --bare) and on 50 pages of 3 to 59 KiB alike.
// HTTP/1.1's event loop takes half of them likewise (see loader's loopsFor).
func cpusFor(given bool, n int, http2 bool, all int) int {
	if given || !http2 {
		return n
	}
	return max(1, all/2)
}
