package remotewrite

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// The series sent during a run end where the report's begin: the same counts and the same
// histograms, so no count goes down between the last live send and the report's, which
// Prometheus would take for a reset. The results mix what the report counts apart: failures
// with and without a response, resources, page visits, a URL listed twice, one never reached.
func TestLiveSeriesLeadToTheReports(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{
		{Method: "GET", URL: "http://127.0.0.1/a"},
		{Method: "POST", URL: "http://u:pw@127.0.0.1/b"},
		{Method: "GET", URL: "http://127.0.0.1/a"}, // listed twice
		{Method: "GET", URL: "http://127.0.0.1/never"},
	}
	rec := stats.NewRecorder(targets, stats.Options{Interval: time.Second})
	live := NewLive(rec, targets)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		batch := make([]loader.Result, 50)
		for i := range batch {
			r := loader.Result{Target: int32(rng.IntN(3)), Status: 200,
				Start: time.Duration(rng.Int64N(int64(time.Second))), Latency: time.Duration(rng.ExpFloat64() * float64(20*time.Millisecond))}
			r.Intended = r.Start - time.Duration(rng.Int64N(int64(time.Millisecond)))
			switch rng.IntN(10) {
			case 0:
				r.Status, r.Err = 0, loader.ErrTimeout
			case 1:
				r.Status = 503
			case 2:
				r.Kind = loader.KindResource
			case 3:
				r.Kind = loader.KindPage
			}
			batch[i] = r
		}
		live.Record(batch)
	}
	at := time.UnixMilli(1_700_000_000_000)
	got := live.Series(RunLabels("nightly", 0), at)
	rep := rec.Report(loader.Outcome{Elapsed: time.Second}, stats.RunInfo{}, "nightly")
	want, err := ReportSeries(&rep, RunLabels("nightly", 0), at)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) > len(want) {
		t.Fatalf("%d live series, %d from the report", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		for k := range g.Histograms { // the report's sum is its mean, rounded, times the count
			if d := g.Histograms[k].Sum/w.Histograms[k].Sum - 1; d > 1e-6 || d < -1e-6 {
				t.Errorf("%v: sum %v live, %v in the report", g.Labels, g.Histograms[k].Sum, w.Histograms[k].Sum)
			}
			g.Histograms[k].Sum, w.Histograms[k].Sum = 0, 0
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("series %d live:\n%+v\nfrom the report:\n%+v", i, g, w)
		}
	}
	// The report lists the URL never reached; the live series do not yet.
	// Its gauges: rate, elapsed, max, 5 percentiles, and 3 percentiles for each of 3 URLs.
	if n := len(want) - len(got); n != 3+3+5+3*3 {
		t.Errorf("the report adds %d series to the live ones, want the unreached URL's 3 and 17 gauges", n)
	}
}
