package judge

import (
	"math"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/internal/hdrcodec"
)

func TestWelchP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		a, b   []float64
		wantLo float64
		wantHi float64
		ok     bool
	}{
		// By hand: variances 1 and 1, t = 10/sqrt(2/3) = 12.247 with 4 degrees of freedom,
		// two-sided p = 0.000255.
		{"clearly different", []float64{10, 11, 12}, []float64{20, 21, 22}, 0.00025, 0.00026, true},
		// t = 0.5/sqrt(2/3) = 0.612 with 4 degrees of freedom: p = 0.573.
		{"within noise", []float64{10, 11, 12}, []float64{10.5, 11.5, 12.5}, 0.57, 0.58, true},
		{"no spread, same", []float64{5, 5}, []float64{5, 5}, 1, 1, true},
		{"no spread, different", []float64{5, 5}, []float64{6, 6}, 0, 0, true},
		{"one run", []float64{5}, []float64{6, 7}, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, ok := welchP(tc.a, tc.b)
			if ok != tc.ok || p < tc.wantLo || p > tc.wantHi {
				t.Errorf("welchP = %v, %v; want %v in [%v, %v]", p, ok, tc.ok, tc.wantLo, tc.wantHi)
			}
		})
	}
}

// fill makes a histogram of the given values (in histogram units).
func fill(values ...int64) *hdr.Histogram {
	h := hdrcodec.NewHistogram()
	for _, v := range values {
		_ = h.RecordValue(v)
	}
	return h
}

func TestQuantileP(t *testing.T) {
	t.Parallel()
	var base, same, slowTail, slowBody []int64
	for i := range int64(1000) {
		base = append(base, 1000+i)
		same = append(same, 1001+i)
		v := 1000 + i
		if i >= 950 {
			v *= 3 // only the slowest 5 % got slower
		}
		slowTail = append(slowTail, v)
		slowBody = append(slowBody, 1100+i)
	}
	tests := []struct {
		name       string
		a, b       []int64
		q          float64
		wantSignif bool
	}{
		{"identical but for one unit, p95", base, same, 95, false},
		{"tail slower, p50 unchanged", base, slowTail, 50, false},
		{"whole body slower, p50", base, slowBody, 50, true},
		{"whole body slower, p95", base, slowBody, 95, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, ok := quantileP(fill(tc.a...), fill(tc.b...), tc.q)
			if !ok || (p < alpha) != tc.wantSignif {
				t.Errorf("p = %v (ok %v), want significant %v", p, ok, tc.wantSignif)
			}
		})
	}
	// By hand: a = {1,2,3,4}, b = {3,4,5,6}; pooled p50 = 3 (4th of 8); above it: a 1 of 4, b 3 of 4;
	// shares 0.25 and 0.75, pooled 0.5, se = sqrt(0.25*0.5) = 0.354, z = 1.414, p = 0.157.
	if p, _ := quantileP(fill(1, 2, 3, 4), fill(3, 4, 5, 6), 50); math.Abs(p-0.1573) > 0.001 {
		t.Errorf("p = %v, want 0.1573", p)
	}
	if _, ok := quantileP(fill(), fill(1), 50); ok {
		t.Error("an empty side gave a p-value")
	}
}
