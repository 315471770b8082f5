package dbload

import (
	"context"
	"time"
)

const (
	// readTimeout bounds one reading of a database, however it hangs.
	readTimeout = 10 * time.Second
	// cancelGrace is how long a reading in flight may go on once its caller cancels it (the
	// run ended meanwhile): a statement cut off has often run on the server all the same, and
	// a reader could then no longer tell whether the counters hold it, which would put one of
	// its own statements in the site's count. Readings take milliseconds; only a database
	// that hangs is cut off.
	cancelGrace = 2 * time.Second
)

// graceful is ctx bounded by readTimeout, whose cancellation takes effect cancelGrace late.
func graceful(ctx context.Context) (context.Context, context.CancelFunc) {
	inner, cancel := context.WithTimeout(context.WithoutCancel(ctx), readTimeout)
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(cancelGrace, cancel) })
	return inner, func() {
		stop()
		cancel()
	}
}
