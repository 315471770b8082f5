package loader

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"testing"

	"github.com/webload/webload/urls"
)

// manyTargets is a list of n distinct URLs on one host.
func manyTargets(n int) []urls.Target {
	targets := make([]urls.Target, n)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1:8080/p/%d", i), Source: "u:1"}
	}
	return targets
}

// allocatedPer is what f allocates, in bytes, divided by n.
func allocatedPer(n int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(n)
}

// The profiles of a long list, most of whose URLs no request reached, cost a pointer per URL
// (a zero profile each took 80 bytes: 80 MB of a 1 000 000-URL run's report).
func TestProfilesOfUnreachedURLsCostAPointer(t *testing.T) {
	const n = 100_000
	targets := manyTargets(n)
	c := newLearners(&Config{}, targets, nil, nil)
	c.learner(7)
	var out any
	if per := allocatedPer(n, func() { out = c.profiles() }); per > 8 {
		t.Errorf("the profiles of %d URLs, one reached, took %d bytes a URL, want at most 8", n, per)
	}
	runtime.KeepAlive(out)
}

// The hosts of a long list are checked with a URL parse per distinct scheme and host, not per
// line: a parse per line of a 1 000 000-line list left hundreds of MB of garbage at its start.
func TestCheckHostsParsesEachHostOnce(t *testing.T) {
	const n = 20_000
	targets := manyTargets(n)
	lookup := func(context.Context, string) ([]string, error) { return nil, &net.DNSError{Err: "no lookup for an IP"} }
	allocs := testing.AllocsPerRun(2, func() {
		if err := CheckHosts(context.Background(), targets, lookup); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 100 {
		t.Errorf("checking the hosts of %d URLs on one host made %.0f allocations, want at most 100", n, allocs)
	}
}
