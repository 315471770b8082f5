package judge

import (
	"fmt"
	"testing"

	"github.com/webload/webload/changepoint"
	"github.com/webload/webload/stats"
)

// A year of nightly results of 100 URLs: what compare --history spends on change points.
func BenchmarkFindChanges(b *testing.B) {
	urlFigs, err := ParseURLFigures("p95")
	if err != nil {
		b.Fatal(err)
	}
	for _, nights := range []int{30, 365} {
		runs := nightRuns(nightlyP95(1, nights, 0.5, 0.03, 0.2, nights*2/3))
		for i := range runs {
			for u := range 100 {
				runs[i].URLs = append(runs[i].URLs, stats.URLStats{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1/page/%d", u),
					Hits: 100, P95: runs[i].Percentiles.P95 * (1 + float64(u)/100)})
			}
		}
		b.Run(fmt.Sprintf("%d nights, 100 URLs", nights), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FindChanges(runs, 30, changepoint.DefaultConfig(), urlFigs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
