package judge

import (
	"math"
	"strings"
	"testing"

	"github.com/webload/webload/stats"
)

// FuzzParseLimits checks what compare relies on: no panic, and limits that name a figure of a
// run, in lower case as written, with a fraction that is a number and never negative.
func FuzzParseLimits(f *testing.F) {
	for _, s := range []string{"p95=10%,trate=5%", "p95=10%, trate=5,failed=0%", "ETime = 1.5 %", "p90=10%,availability=1%",
		"p99.9=0", "bytes=1%", "p95", "p95=", "p95=x%", "p95=-1%", "speed=10%", "=", ",", "p95=NaN", "p95=inf%",
		"p(99.5)=10%", "P(75)=5", "p(0)=1%", "p(101)=1%", "p(abc)=1%", "p75=10%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		limits, err := ParseLimits(s)
		if err != nil {
			if limits != nil || !strings.HasPrefix(err.Error(), "bad limit ") {
				t.Fatalf("ParseLimits(%q) = %v, %v; want no limits and a bad limit error", s, limits, err)
			}
			return
		}
		if len(limits) != strings.Count(s, ",")+1 {
			t.Fatalf("ParseLimits(%q) = %d limits for %d parts", s, len(limits), strings.Count(s, ",")+1)
		}
		for _, l := range limits {
			f, ok := stats.LookupFigure(l.Key)
			if !ok || !stats.PerRun(f) || l.Key != strings.ToLower(l.Key) || l.Key != strings.TrimSpace(l.Key) {
				t.Fatalf("ParseLimits(%q) key %q", s, l.Key)
			}
			if math.IsNaN(l.Max) || l.Max < 0 {
				t.Fatalf("ParseLimits(%q) max %v", s, l.Max)
			}
		}
	})
}
