package run

import (
	"context"
	"testing"
	"time"

	"github.com/webload/webload/capacity"
	"github.com/webload/webload/internal/capsite"
)

// BenchmarkCapacityAccuracy searches a site of 4 workers of 40 ms, whose capacity is exactly
// 100 req/s, as `webload capacity --slo 'p95<100ms' --step-time 2s --settle 1s --from 25`
// would, and reports the capacity found and its ratio to the truth. The answer depends on the
// machine's own load as much as on the search (a busy client delays the site's workers too),
// so it is measured here and by scripts/capacity-accuracy.sh, never judged by a test:
//
//	go test -run '^$' -bench CapacityAccuracy -benchtime 1x -count 5 ./run/
func BenchmarkCapacityAccuracy(b *testing.B) {
	cfg := capsite.Config{Workers: 4, Service: 40 * time.Millisecond}
	site, err := capsite.Start(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { site.Close() })
	spec, search := stepOf(b, site.URL(), "p95<100ms")
	search.StepTime, search.Settle = 2*time.Second, time.Second
	measure := func(ctx context.Context, rate float64) (capacity.Measured, error) {
		return measureStep(ctx, spec, nil, search, rate)
	}
	for b.Loop() {
		res, err := capacity.Search(b.Context(), search.SLO, capacity.Options{From: 25}, measure)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.Rate, "req/s-found")
		b.ReportMetric(res.Rate/cfg.Capacity(), "found/true")
		b.ReportMetric(float64(len(res.Steps)), "steps")
		for _, st := range res.Steps {
			b.Logf("%6.1f req/s: passed %-5v again %-5v p95 %7.1f ms, %d failed", st.Rate, st.Passed, st.Again,
				st.Measured.Report.Percentiles.P95*1000, st.Measured.Report.FailedTransactions)
		}
	}
}
