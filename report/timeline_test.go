package report

import (
	"errors"
	"math"
	"testing"

	"github.com/webload/webload/stats"
)

func TestDownsample(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	// pt is an interval of the timeline; times in seconds.
	pt := func(start float64, requests, hits, failed int64, p50, p90, p99, top float64) stats.TimelinePoint {
		return stats.TimelinePoint{Start: start, Requests: requests, Transactions: hits, Failed: failed,
			P50: p50, P90: p90, P99: p99, Max: top}
	}
	five := []stats.TimelinePoint{
		pt(0, 10, 10, 0, 0.010, 0.020, 0.030, 0.040),
		pt(1, 30, 30, 0, 0.020, 0.025, 0.035, 0.045),
		pt(2, 4, 0, 4, 0, 0, 0, 0), // only failures: no latency
		pt(3, 20, 18, 2, 0.015, 0.050, 0.500, 0.900),
		pt(4, 0, 0, 0, 0, 0, 0, 0),
	}
	tests := []struct {
		name      string
		points    []stats.TimelinePoint
		interval  float64
		maxPoints int
		want      timeline
	}{
		{name: "empty", interval: 1, maxPoints: 10, want: timeline{Step: 1, Merged: 1}},
		{name: "short enough: as recorded, gaps where nothing ended", points: five, interval: 1, maxPoints: 5,
			want: timeline{Step: 1, Merged: 1,
				T:        series{0, 1, 2, 3, 4},
				P50:      series{10, 20, nan, 15, nan},
				P90:      series{20, 25, nan, 50, nan},
				P99:      series{30, 35, nan, 500, nan},
				Max:      series{40, 45, nan, 900, nan},
				Requests: series{10, 30, 4, 20, 0},
				Failures: series{0, 0, 4, 2, 0}}},
		{name: "merged in threes: worst tail, weighted median, exact rates", points: five, interval: 1, maxPoints: 2,
			want: timeline{Step: 3, Merged: 3,
				T:        series{0, 3},
				P50:      series{17.5, 15}, // (10×10 + 20×30) / 40
				P90:      series{25, 50},
				P99:      series{35, 500},
				Max:      series{45, 900},
				Requests: series{44.0 / 3, 10}, // the last point covers two intervals
				Failures: series{4.0 / 3, 1}}},
		{name: "half-second intervals give rates per second", points: five[:2], interval: 0.5, maxPoints: 1,
			want: timeline{Step: 1, Merged: 2,
				T: series{0}, P50: series{17.5}, P90: series{25}, P99: series{35}, Max: series{45},
				Requests: series{40}, Failures: series{0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := downsample(tt.points, tt.interval, tt.maxPoints)
			if err != nil {
				t.Fatal(err)
			}
			if got.Step != tt.want.Step || got.Merged != tt.want.Merged {
				t.Errorf("step %v merged %d, want %v and %d", got.Step, got.Merged, tt.want.Step, tt.want.Merged)
			}
			for _, s := range []struct {
				name      string
				got, want series
			}{
				{"t", got.T, tt.want.T}, {"p50", got.P50, tt.want.P50}, {"p90", got.P90, tt.want.P90},
				{"p99", got.P99, tt.want.P99}, {"max", got.Max, tt.want.Max},
				{"requests", got.Requests, tt.want.Requests}, {"failures", got.Failures, tt.want.Failures},
			} {
				if !sameSeries(s.got, s.want) {
					t.Errorf("%s: %v, want %v", s.name, s.got, s.want)
				}
			}
		})
	}
	if _, err := downsample(five, 0, 10); !errors.Is(err, errBadInterval) {
		t.Errorf("interval 0: %v, want errBadInterval", err)
	}
}

// sameSeries compares to the thousandth, the precision the page keeps, NaN equal to NaN.
func sameSeries(a, b series) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.IsNaN(a[i]) != math.IsNaN(b[i]) || !math.IsNaN(a[i]) && math.Abs(a[i]-b[i]) > 1e-3 {
			return false
		}
	}
	return true
}

func TestSeriesJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		s    series
		want string
	}{
		{name: "empty", s: series{}, want: "[]"},
		{name: "gaps are null", s: series{1, math.NaN(), 2.5, math.Inf(1)}, want: "[1,null,2.5,null]"},
		{name: "no needless digits", s: series{0.001, 1234.5, 1e-7}, want: "[0.001,1234.5,1e-07]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := tt.s.MarshalJSON()
			if err != nil || string(b) != tt.want {
				t.Errorf("%s, %v; want %s", b, err, tt.want)
			}
		})
	}
}
