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
}

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
	ramp := r.Ramp.Seconds()
	inRamp := r.PerSecond * ramp / 2
	var t float64
	if n < inRamp {
		t = math.Sqrt(2 * ramp * n / r.PerSecond)
	} else {
		t = ramp + (n-inRamp)/r.PerSecond
	}
	return time.Duration(t * float64(time.Second))
}
