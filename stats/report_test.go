package stats

import (
	"flag"
	"math"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/loader"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const mib = 1 << 20

// knownRun is resulttest.KnownRun, recorded.
func knownRun() (*Recorder, loader.Outcome) {
	targets, results, out := resulttest.KnownRun()
	rec := NewRecorder(targets, Options{})
	rec.Record(results)
	return rec, out
}

func TestReportFigures(t *testing.T) {
	t.Parallel()
	rec, out := knownRun()
	rep := rec.Report(out, RunInfo{Version: "test", Users: 2}, "known")
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	// Hits: 4x200, the 404 and the 401; failures: the 500 and the timeout.
	floats := []struct {
		name      string
		got, want float64
	}{
		{"availability", rep.Availability, 75},
		{"elapsed", rep.ElapsedTime, 2},
		{"data transferred", rep.DataTransferred, 4.5},
		{"response time", rep.ResponseTime, 1.060 / 6},
		{"transaction rate", rep.TransactionRate, 3},
		{"throughput", rep.Throughput, 2.25},
		{"concurrency", rep.Concurrency, 4.060 / 2},
		{"longest", rep.LongestTransaction, 0.4},
		{"shortest", rep.ShortestTransaction, 0.01},
		{"per-user mean", rep.Users.TransactionsMean, 3},
		{"per-user stddev", rep.Users.TransactionsStddev, 0},
		{"url a mean", rep.URLs[0].Mean, (0.1 + 0.2 + 0.3 + 0.01) / 4},
		{"url b max", rep.URLs[1].Max, 0.4},
	}
	for _, f := range floats {
		if !near(f.got, f.want) {
			t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
		}
	}
	ints := []struct {
		name      string
		got, want int64
	}{
		{"transactions", rep.Transactions, 6},
		{"successful", rep.SuccessfulTransactions, 5},
		{"failed", rep.FailedTransactions, 2},
		{"requests", rep.Requests, 8},
		{"in flight at stop", rep.InFlightAtStop, 1},
		{"status 200", rep.StatusCodes["200"], 4},
		{"status 500", rep.StatusCodes["500"], 1},
		{"timeouts", rep.Errors["timeout"], 1},
		{"url b hits", rep.URLs[1].Hits, 2},
		{"url b failures", rep.URLs[1].Failures, 2},
		{"url b bytes", rep.URLs[1].Bytes, mib + mib/2},
	}
	for _, f := range ints {
		if f.got != f.want {
			t.Errorf("%s = %d, want %d", f.name, f.got, f.want)
		}
	}
	if rep.Requests != rep.Transactions+rep.FailedTransactions {
		t.Errorf("requests %d != transactions %d + failed %d", rep.Requests, rep.Transactions, rep.FailedTransactions)
	}
	// HdrHistogram keeps 3 significant digits: percentiles are within 0.1 % of the sample.
	pcts := []struct {
		name      string
		got, want float64
	}{{"p50", rep.Percentiles.P50, 0.1}, {"p90", rep.Percentiles.P90, 0.3}, {"p99", rep.Percentiles.P99, 0.4}, {"max", rep.Percentiles.Max, 0.4}}
	for _, p := range pcts {
		if math.Abs(p.got-p.want) > p.want/1000 {
			t.Errorf("%s = %v, want %v within 0.1%%", p.name, p.got, p.want)
		}
	}
	if rep.Run.StopReason != "time" || rep.Label != "known" || rep.Run.HistogramUnit != "us" {
		t.Errorf("run info = %+v, label %q", rep.Run, rep.Label)
	}
}

// The saved histogram must hold exactly the transactions, so results can be merged later.
func TestReportHistogramRoundTrip(t *testing.T) {
	t.Parallel()
	rec, out := knownRun()
	rep := rec.Report(out, RunInfo{}, "")
	h, err := hdr.Decode([]byte(rep.Histogram))
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != rep.Transactions {
		t.Errorf("histogram holds %d values, want %d", h.TotalCount(), rep.Transactions)
	}
	u, err := hdr.Decode([]byte(rep.URLs[0].Histogram))
	if err != nil {
		t.Fatal(err)
	}
	if u.TotalCount() != rep.URLs[0].Hits {
		t.Errorf("URL histogram holds %d values, want %d", u.TotalCount(), rep.URLs[0].Hits)
	}
}
