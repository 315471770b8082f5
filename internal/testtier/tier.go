// Package testtier sorts the tests into the suite's tiers. `go test -short ./...` is the edit
// loop: it leaves out what starts a database, a browser or an exporter, and every test that
// takes more than about 2 s. The whole suite runs under -race, except the tests of pure maths
// that the race detector slows tenfold and that share no memory between goroutines; those run
// in a step of their own without it (see docs/development.md).
package testtier

import "testing"

// Slow skips a test that takes more than about 2 s under -short.
func Slow(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: left out of -short")
	}
}

// Program skips, under -short, a test that starts an outside program (a database server, a
// browser, an exporter), named by what.
func Program(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("starts %s: left out of -short", what)
	}
}

// Maths skips, under the race detector, a test of pure computation on one goroutine, which
// the detector only slows: the suite runs it again without -race.
func Maths(t testing.TB) {
	t.Helper()
	if raceEnabled {
		t.Skip("pure maths on one goroutine: runs without -race (scripts/test.sh maths)")
	}
}
