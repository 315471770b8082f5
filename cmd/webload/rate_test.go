package main

import (
	"strings"
	"testing"
)

// A rate that is not a finite positive number of requests per second is refused before the
// run with one line naming --rate, and nothing is sent.
func TestRateRefusedNamesTheFlag(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	for _, rate := range []string{"inf", "+Inf", "-inf", "NaN", "1e999", "1e999/1h", "0", "-5", "1/0s"} {
		t.Run(rate, func(t *testing.T) {
			_, stderr, code := webload(t, nil, "-q", "--rate", rate, "-r", "1", site.URL+"/")
			if code != exitUsage || !strings.HasPrefix(stderr, "webload: --rate: ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line naming --rate", code, stderr, exitUsage)
			}
		})
	}
	if n := len(site.snapshot()); n != 0 {
		t.Errorf("the site got requests on %d paths, want none", n)
	}
}
