package stats

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

func TestTallyRecordsBySiegesRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		res  loader.Result
		want Tally
	}{
		{"200", loader.Result{Status: 200, BodyBytes: 10}, Tally{Requests: 1, Transactions: 1, Successful: 1, Bytes: 10}},
		{"401 challenge", loader.Result{Status: 401, BodyBytes: 3}, Tally{Requests: 1, Transactions: 1, Successful: 1, Bytes: 3}},
		{"404", loader.Result{Status: 404, BodyBytes: 5}, Tally{Requests: 1, Transactions: 1, Bytes: 5}},
		{"408", loader.Result{Status: 408, BodyBytes: 2}, Tally{Requests: 1, Failed: 1, Bytes: 2}},
		{"500", loader.Result{Status: 500, BodyBytes: 4}, Tally{Requests: 1, Failed: 1, Bytes: 4}},
		{"timeout", loader.Result{Err: loader.ErrTimeout, BodyBytes: 7}, Tally{Requests: 1, Failed: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got Tally
			transaction := got.Record(&tc.res)
			if got != tc.want || transaction != (tc.want.Transactions == 1) {
				t.Errorf("Record = %v, %+v; want %+v", transaction, got, tc.want)
			}
			sum := got
			sum.Add(got)
			if twice := (Tally{2 * got.Requests, 2 * got.Transactions, 2 * got.Successful, 2 * got.Failed, 2 * got.Bytes}); sum != twice {
				t.Errorf("Add = %+v, want %+v", sum, twice)
			}
		})
	}
}

// Latencies recorded apart, saved and added give what one recording of every value gives: the
// count, the extremes and every percentile exactly, the mean to rounding.
func TestLatencyAddsSavedPartsLikeOneRecording(t *testing.T) {
	t.Parallel()
	var parts [3]Latency
	var all Latency
	for i := range 3000 {
		d := time.Duration(200+(i*7919)%900000) * time.Microsecond
		parts[i%3].Record(d)
		all.Record(d)
	}
	var sum Latency
	a := hdrcodec.NewHistAdder()
	for i := range parts {
		p := &parts[i]
		sum.addShortest(p.Count(), p.Min())
		if err := sum.addSaved(p.Count(), p.Mean(), p.Max(), p.encode(nil), a); err != nil {
			t.Fatal(err)
		}
	}
	if sum.Count() != all.Count() || sum.Max() != all.Max() || sum.Min() != all.Min() {
		t.Errorf("count, max, min = %d, %g, %g; one recording %d, %g, %g",
			sum.Count(), sum.Max(), sum.Min(), all.Count(), all.Max(), all.Min())
	}
	if got, want := sum.Mean(), all.Mean(); math.Abs(got-want) > 1e-9 {
		t.Errorf("mean %g, one recording %g", got, want)
	}
	for _, q := range []float64{0, 50, 90, 99, 99.9, 100} {
		if got, want := sum.Quantile(q, sum.Max()), all.Quantile(q, all.Max()); got != want {
			t.Errorf("p%g = %g, one recording %g", q, got, want)
		}
	}
	if sum.encode(nil) != all.encode(nil) {
		t.Error("the added histogram encodes apart from the one recording's")
	}
}

// Every per-URL percentile of the list in URLStats.quantiles is filled, by the recorder, Combine
// and Merge alike, from the URL's histogram and capped at its maximum: a new percentile needs
// nothing more than its field and its line in the list.
func TestURLPercentilesFollowTheList(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}, {Method: "GET", URL: "http://127.0.0.1/b"}}
	var shards []Report
	for s := range 2 {
		rec := NewRecorder(targets, Options{})
		var batch []loader.Result
		for i := range 400 {
			batch = append(batch, loader.Result{Target: int32(i % 2), Status: 200,
				Latency: time.Duration(100+(i*(s+5)*7919)%70000) * time.Microsecond})
		}
		rec.Record(batch)
		rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, RunInfo{Test: "t", Shard: &ShardInfo{Index: s, Count: 2}}, "x")
		shards = append(shards, rep)
	}
	combined, err := Combine(shards)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	for name, rep := range map[string]Report{"recorded": shards[0], "combined": combined, "merged": merged} {
		for i := range rep.URLs {
			u := &rep.URLs[i]
			d, err := DecodeDistribution(u.Histogram)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			u.Quantiles(func(q float64, v *float64) {
				n++
				if want := min(d.Quantiles([]float64{q})[0], u.Max); *v != want || want == 0 {
					t.Errorf("%s URL %d p%g = %g, want %g from its histogram", name, i, q, *v, want)
				}
			})
			if n == 0 {
				t.Fatal("no per-URL percentiles listed")
			}
		}
	}
}

func ExampleLatency() {
	var l Latency
	for _, ms := range []int{12, 15, 20, 480} {
		l.Record(time.Duration(ms) * time.Millisecond)
	}
	fmt.Printf("%d values, mean %.2f ms, p50 %.2f ms, max %.0f ms\n",
		l.Count(), l.Mean()*1000, l.Quantile(50, l.Max())*1000, l.Max()*1000)
	// Output: 4 values, mean 131.75 ms, p50 15.01 ms, max 480 ms
}
