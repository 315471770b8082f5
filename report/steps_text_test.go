package report

import (
	"strings"
	"testing"

	"github.com/webload/webload/stats"
)

func TestLadderTable(t *testing.T) {
	t.Parallel()
	rep, err := stats.Ladder([]stats.Report{
		{TransactionRate: 99.5, ResponseTime: 0.0201, Percentiles: stats.Percentiles{P95: 0.021, P99: 0.022}, Concurrency: 2, Run: stats.RunInfo{Users: 2}},
		{TransactionRate: 401, ResponseTime: 0.04, Percentiles: stats.Percentiles{P95: 0.05, P99: 0.06}, Concurrency: 16,
			FailedTransactions: 3, Run: stats.RunInfo{Users: 16}},
		{TransactionRate: 200, ResponseTime: 0.04, Percentiles: stats.Percentiles{P95: 0.05, P99: 0.06}, Concurrency: 8, Run: stats.RunInfo{Users: 32}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteSteps(&b, &rep)
	want := "\nLadder of 3 steps, one after the other (the figures above are all of them together):\n" +
		"Ladder:      users     TRate/s   RTime ms     p95 ms     p99 ms     failed     Conc  Little\n" +
		"                 2       99.50      20.10      21.00      22.00          0     2.00  1.00 ok\n" +
		"                16      401.00      40.00      50.00      60.00          3    16.00  1.00 ok\n" +
		"                32      200.00      40.00      50.00      60.00          0     8.00  0.25 off by -75%\n"
	if b.String() != want {
		t.Errorf("ladder table:\n%s\nwant:\n%s", b.String(), want)
	}
}
