package changepoint

import (
	"fmt"
	"testing"
)

// A year of nights costs what a nightly compare can spend on every figure and URL.
func BenchmarkDetect(b *testing.B) {
	for _, n := range []int{30, 365, 1000} {
		for _, tc := range []struct {
			name   string
			stepAt int
		}{{"no change", -1}, {"step", n * 2 / 3}} {
			xs := nights(1, n, 200, tc.stepAt)
			b.Run(fmt.Sprintf("%d nights, %s", n, tc.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Detect(xs, DefaultConfig()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
