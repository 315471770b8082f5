package loader

import (
	"math"
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

// Extreme rates stay within time.Duration: a schedule too slow to reach a request in 292 years
// saturates instead of wrapping around to the past.
func TestRateDueAtExtremeRates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rate Rate
		i    int64
		want time.Duration
	}{
		{"a request every 316 years", Rate{PerSecond: 1e-10}, 1, never},
		{"the first request is due at once however slow", Rate{PerSecond: 1e-10}, 0, 0},
		{"slow with a ramp", Rate{PerSecond: 1e-10, Ramp: time.Hour}, 5, never},
		{"slowest positive rate", Rate{PerSecond: math.SmallestNonzeroFloat64}, 1, never},
		{"last request of the schedule", Rate{PerSecond: 1e-3}, math.MaxInt64, never},
		{"a trillion a second", Rate{PerSecond: 1e12}, 2e12, 2 * time.Second},
		{"a trillion a second, first nanosecond", Rate{PerSecond: 1e12}, 999, 0},
		{"infinitely fast", Rate{PerSecond: math.Inf(1)}, 1e15, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.rate.Due(tc.i); got != tc.want {
				t.Errorf("Due(%d) = %v, want %v", tc.i, got, tc.want)
			}
		})
	}
}

// Before is Due's inverse, computed without walking the schedule, so counting what a stopped
// run left unsent takes no time at any rate.
func TestRateBefore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rate Rate
		t    time.Duration
		want int64
	}{
		{"nothing before the start", Rate{PerSecond: 500}, 0, 0},
		{"request 0 is due at 0", Rate{PerSecond: 500}, 1, 1},
		{"due exactly at t is not before it", Rate{PerSecond: 500}, 2 * time.Millisecond, 1},
		{"one second", Rate{PerSecond: 500}, time.Second, 500},
		{"fractional rate", Rate{PerSecond: 0.5}, 7 * time.Second, 4},
		{"halfway through the ramp", Rate{PerSecond: 100, Ramp: 10 * time.Second}, 5 * time.Second, 125},
		{"after the ramp", Rate{PerSecond: 100, Ramp: 10 * time.Second}, 11 * time.Second, 600},
		{"a trillion a second for 2 s", Rate{PerSecond: 1e12}, 2 * time.Second, 2e12},
		{"a trillion a second for an hour", Rate{PerSecond: 1e12, Ramp: time.Minute}, time.Hour, 3_570_000_000_000_000},
		{"one request in 316 years", Rate{PerSecond: 1e-10}, time.Hour, 1},
		{"more than int64 holds", Rate{PerSecond: 1e300}, time.Hour, math.MaxInt64},
		{"infinitely fast", Rate{PerSecond: math.Inf(1)}, time.Second, math.MaxInt64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.rate.Before(tc.t); got != tc.want {
				t.Errorf("Before(%v) = %d, want %d", tc.t, got, tc.want)
			}
		})
	}
}

// Before agrees with Due everywhere: exactly the requests 0..Before(t)-1 are due before t.
func TestRateBeforeMatchesDue(t *testing.T) {
	t.Parallel()
	for _, r := range []Rate{{PerSecond: 1000}, {PerSecond: 37, Ramp: 3 * time.Second}, {PerSecond: 3e9, Ramp: time.Second}, {PerSecond: 0.01}} {
		for k := range int64(2000) {
			at := time.Duration(k*k*k) * 7 * time.Microsecond
			n := r.Before(at)
			if n > 0 && r.Due(n-1) >= at || r.Due(n) < at {
				t.Fatalf("%+v: Before(%v) = %d, but Due(%d) = %v and Due(%d) = %v", r, at, n, n-1, r.Due(n-1), n, r.Due(n))
			}
		}
	}
}
