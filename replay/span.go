package replay

import (
	"fmt"
	"time"
)

// maxReplaySeconds is the longest a replay's schedule may run, in seconds: 290 years, a little
// less than a time.Duration holds (about 292), so that a due time rounded to nanoseconds never
// wraps round to a negative one. A line due later (a corrupt year, or a very slow --speed) is an
// error.
const maxReplaySeconds = 290 * 365.25 * 24 * 3600

// clockSpan writes a stretch of the log's clock, in seconds: as a duration when one holds it,
// in years beyond (a log may span more than a replay can last).
func clockSpan(secs int64) string {
	if secs < 0 || float64(secs) >= maxReplaySeconds {
		return fmt.Sprintf("%.0f years", float64(secs)/(365.25*24*3600))
	}
	return (time.Duration(secs) * time.Second).String()
}
