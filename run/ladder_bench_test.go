package run

import (
	"fmt"
	"io"
	"testing"
	"time"
)

// BenchmarkLadderKnee runs a ladder of 1 to 16 users against a site of 4 workers taking 40 ms
// each, whose capacity is 100 req/s, and reports each step's rate and Little's law ratio
// (users over rate × response time, 1 when the client adds no time of its own). Below the
// knee the rate should rise with the users, past it stay near 100 req/s while the response
// time grows. It measures the machine as much as the ladder, so it is a benchmark, run by
// scripts/capacity-accuracy.sh, never a test with bounds:
//
//	go test -run '^$' -bench LadderKnee -benchtime 1x ./run/
func BenchmarkLadderKnee(b *testing.B) {
	const workers, service = 4, 40 * time.Millisecond
	srv, _ := newCapacitySite(b, workers, service)
	ladder := []int{1, 2, 4, 8, 16}
	for b.Loop() {
		spec := smallSpec(b, srv.URL+"/", 1, 1000)
		spec.Config.Duration = 2 * time.Second
		spec.Ladder = ladder
		rep, err := Execute(b.Context(), spec, Streams{Stdout: io.Discard, Stderr: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		for i, users := range ladder {
			s := &rep.Steps[i]
			b.ReportMetric(s.TransactionRate, fmt.Sprintf("req/s@%dusers", users))
			b.ReportMetric(s.Little(), fmt.Sprintf("little@%dusers", users))
		}
	}
}
