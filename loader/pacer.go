package loader

import (
	"math"
	"time"
)

// Pacer gives the open model its schedule: Due(i) is when request i (counted from 0) should
// start, measured from the start of the run. It is pure arithmetic on the request number, so
// a late request never shifts the ones after it and the schedule can be tested without sleeping.
type Pacer interface {
	Due(i int64) time.Duration
	// Before is Due's inverse: how many requests are due before t, so that requests left
	// unsent can be counted at any rate without walking the schedule.
	Before(t time.Duration) int64
}

// never is when a request is due that the schedule does not reach within time.Duration's range
// (about 292 years): extreme rates saturate there instead of wrapping around to the past.
const never = time.Duration(math.MaxInt64)

// Rate sends Rate requests per second, evenly spaced, after a linear ramp from zero over Ramp.
type Rate struct {
	PerSecond float64
	Ramp      time.Duration
}

var _ Pacer = Rate{}

// Due solves "requests sent by time t equals i" for t. During the ramp the rate grows linearly,
// so the count is PerSecond*t²/(2*Ramp) and t = sqrt(2*Ramp*i/PerSecond); after it the count
// grows by PerSecond each second from PerSecond*Ramp/2.
func (r Rate) Due(i int64) time.Duration {
	n := float64(i)
	var t float64 // seconds
	switch ramp := r.Ramp.Seconds(); {
	case ramp <= 0:
		// Apart from the ramp's formula, where an infinite rate would make Inf*0.
		t = n / r.PerSecond
	case n < r.PerSecond*ramp/2:
		t = math.Sqrt(2 * ramp * n / r.PerSecond)
	default:
		t = ramp + (n-r.PerSecond*ramp/2)/r.PerSecond
	}
	ns := t * float64(time.Second)
	// Converting a float64 at or beyond 2⁶³ to an integer is undefined (amd64 gives the most
	// negative Duration); the negated test also catches NaN.
	if !(ns < float64(math.MaxInt64)) {
		return never
	}
	return time.Duration(ns)
}

// Before counts the requests due before t, that is the first i with Due(i) >= t. It solves the
// count formula of Due for t, then lets Due settle the last request either way, since the two
// round differently. It saturates at math.MaxInt64.
func (r Rate) Before(t time.Duration) int64 {
	if t <= 0 {
		return 0
	}
	s := t.Seconds()
	var n float64
	switch ramp := r.Ramp.Seconds(); {
	case ramp <= 0:
		n = s * r.PerSecond
	case s < ramp:
		n = r.PerSecond * s * s / (2 * ramp)
	default:
		n = r.PerSecond*ramp/2 + (s-ramp)*r.PerSecond
	}
	if !(n < float64(math.MaxInt64)) {
		return math.MaxInt64
	}
	i := int64(math.Ceil(n))
	// A few steps at most: the estimate is off by rounding only. The bound keeps this constant
	// time where float64 can no longer tell neighbouring requests apart.
	for k := 0; k < 8 && i > 0 && r.Due(i-1) >= t; k++ {
		i--
	}
	for k := 0; k < 8 && i < math.MaxInt64 && r.Due(i) < t; k++ {
		i++
	}
	return i
}
