package report

import (
	"fmt"
	"math"
	"testing"
)

// uniform is a distribution of count values spread evenly over 0..1 s: percentile p reads p/100 s.
type uniform struct{ count int64 }

func (u uniform) Count() int64 { return u.count }

func (u uniform) Quantiles(percentiles []float64) []float64 {
	out := make([]float64, len(percentiles))
	for i, p := range percentiles {
		out[i] = p / 100
	}
	return out
}

func TestCurve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		count  int64
		top    float64
		points int
		// checks of single points: x index, want x, want y (ms)
		at []struct{ i, x, y float64 }
	}{
		{name: "no values", count: 0, points: 0},
		{name: "one value ends at once", count: 1, top: 0.25, points: 1,
			at: []struct{ i, x, y float64 }{{0, 0, 250}}},
		{name: "a hundred values reach p99", count: 100, points: 41,
			at: []struct{ i, x, y float64 }{{0, 0, 0}, {20, 1, 900}, {40, 2, 1000}}},
		{name: "a thousand values reach p99.9", count: 1000, points: 61,
			at: []struct{ i, x, y float64 }{{20, 1, 900}, {40, 2, 990}, {60, 3, 1000}}},
		{name: "the exact maximum caps the histogram's bucket tops", count: 1000, top: 0.5, points: 61,
			at: []struct{ i, x, y float64 }{{10, 0.5, 500}, {20, 1, 500}, {60, 3, 500}}},
		{name: "a count between powers of ten ends at its own nines", count: 500, points: 55,
			at: []struct{ i, x, y float64 }{{54, math.Log10(500), 1000}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x, y := curve(uniform{tt.count}, tt.top)
			if len(x) != tt.points || len(y) != tt.points {
				t.Fatalf("%d x and %d y, want %d points", len(x), len(y), tt.points)
			}
			for i := 1; i < len(x); i++ {
				if x[i] <= x[i-1] || y[i] < y[i-1] {
					t.Errorf("point %d (%v, %v) after (%v, %v): the curve must rise to the right", i, x[i], y[i], x[i-1], y[i-1])
				}
			}
			for _, a := range tt.at {
				i := int(a.i)
				if math.Abs(x[i]-a.x) > 1e-6 || math.Abs(y[i]-a.y) > 1e-3 {
					t.Errorf("point %d is (%v, %v), want (%v, %v)", i, x[i], y[i], a.x, a.y)
				}
			}
		})
	}
}

func TestPercentileAt(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ x, want float64 }{{0, 0}, {1, 90}, {2, 99}, {3, 99.9}, {0.5, 68.377}} {
		t.Run(fmt.Sprint(tt.x), func(t *testing.T) {
			t.Parallel()
			if got := percentileAt(tt.x); math.Abs(got-tt.want) > 1e-3 {
				t.Errorf("percentileAt(%v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

func TestAlignCurves(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	tests := []struct {
		name   string
		xs, ys [][]float64
		x      []float64
		y      [][]float64
	}{
		{name: "none", xs: nil, ys: nil, x: nil, y: [][]float64{}},
		{name: "one", xs: [][]float64{{0, 1}}, ys: [][]float64{{5, 6}}, x: []float64{0, 1}, y: [][]float64{{5, 6}}},
		{name: "different ends leave gaps",
			xs: [][]float64{{0, 0.05, 1.2}, {0, 0.05, 0.7}},
			ys: [][]float64{{1, 2, 9}, {3, 4, 5}},
			x:  []float64{0, 0.05, 0.7, 1.2},
			y:  [][]float64{{1, 2, nan, 9}, {3, 4, 5, nan}}},
		{name: "an empty result has only gaps",
			xs: [][]float64{{0, 2}, nil}, ys: [][]float64{{1, 2}, nil},
			x: []float64{0, 2}, y: [][]float64{{1, 2}, {nan, nan}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := alignCurves(tt.xs, tt.ys)
			if fmt.Sprint([]float64(c.X)) != fmt.Sprint(tt.x) {
				t.Errorf("x %v, want %v", c.X, tt.x)
			}
			if len(c.Y) != len(tt.y) {
				t.Fatalf("%d series, want %d", len(c.Y), len(tt.y))
			}
			for i := range tt.y {
				if fmt.Sprint([]float64(c.Y[i])) != fmt.Sprint(tt.y[i]) {
					t.Errorf("series %d: %v, want %v", i, c.Y[i], tt.y[i])
				}
			}
		})
	}
}
