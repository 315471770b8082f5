package stats

import (
	"math"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

func TestDistribution(t *testing.T) {
	t.Parallel()
	rec := NewRecorder([]urls.Target{{Method: "GET", URL: "http://127.0.0.1/"}}, Options{})
	var batch []loader.Result
	for i := 1; i <= 1000; i++ {
		batch = append(batch, loader.Result{Status: 200, Latency: time.Duration(i) * time.Millisecond})
	}
	rec.Record(batch)
	rep := rec.Report(loader.Outcome{Elapsed: time.Second}, RunInfo{Version: "test"}, "")

	tests := []struct {
		name    string
		encoded string
		count   int64
		q       []float64
		want    []float64 // seconds, to the histogram's 0.1 %
	}{
		{name: "empty", encoded: "", count: 0, q: []float64{50, 100}, want: []float64{0, 0}},
		{name: "one to a thousand ms", encoded: rep.Histogram, count: 1000,
			q: []float64{0, 50, 90, 99, 100}, want: []float64{0.001, 0.5, 0.9, 0.99, 1}},
		{name: "order kept", encoded: rep.Histogram, count: 1000, q: []float64{99, 50}, want: []float64{0.99, 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, err := DecodeDistribution(tt.encoded)
			if err != nil {
				t.Fatal(err)
			}
			if d.Count() != tt.count {
				t.Errorf("count %d, want %d", d.Count(), tt.count)
			}
			got := d.Quantiles(tt.q)
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > tt.want[i]*0.001+1e-6 {
					t.Errorf("p%v = %v s, want %v", tt.q[i], got[i], tt.want[i])
				}
			}
		})
	}
	if _, err := DecodeDistribution("not base64!"); err == nil {
		t.Error("a corrupt histogram decoded")
	}
}
