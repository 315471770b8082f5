package loader

import (
	"testing"
	"time"
)

func TestRateDue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rate Rate
		i    int64
		want time.Duration
	}{
		{"first request at once", Rate{PerSecond: 500}, 0, 0},
		{"evenly spaced", Rate{PerSecond: 500}, 1, 2 * time.Millisecond},
		{"one second in", Rate{PerSecond: 500}, 500, time.Second},
		{"fractional rate", Rate{PerSecond: 0.5}, 3, 6 * time.Second},
		// Ramp 0->100/s over 10 s sends 500 requests in the ramp: request 125 is due at 5 s.
		{"halfway through the ramp", Rate{PerSecond: 100, Ramp: 10 * time.Second}, 125, 5 * time.Second},
		{"end of the ramp", Rate{PerSecond: 100, Ramp: 10 * time.Second}, 500, 10 * time.Second},
		{"after the ramp", Rate{PerSecond: 100, Ramp: 10 * time.Second}, 600, 11 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.rate.Due(tc.i)
			if d := got - tc.want; d < -time.Microsecond || d > time.Microsecond {
				t.Errorf("Due(%d) = %v, want %v", tc.i, got, tc.want)
			}
		})
	}
}

// Within any schedule, later requests are never due earlier.
func TestRateDueIsMonotonic(t *testing.T) {
	t.Parallel()
	for _, r := range []Rate{{PerSecond: 1000}, {PerSecond: 37, Ramp: 3 * time.Second}, {PerSecond: 20000, Ramp: time.Minute}} {
		prev := time.Duration(-1)
		for i := range int64(100000) {
			d := r.Due(i)
			if d < prev {
				t.Fatalf("%+v: Due(%d) = %v before Due(%d) = %v", r, i, d, i-1, prev)
			}
			prev = d
		}
	}
}
