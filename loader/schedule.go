package loader

import "time"

// Arrival is one request of a schedule given from outside the loader (a replayed access log).
type Arrival struct {
	// Due is when it is to be sent, from the start of the run.
	Due time.Duration
	// Target indexes the loader's targets.
	Target int
	// Visitor names who sends it: the arrivals of one visitor go through one user, one at a
	// time and in their order, with that visitor's cookies.
	Visitor string
}

// Schedule gives the open model its arrivals from outside instead of from Config.Rate: a
// replayed log, whose requests keep their own moments and visitors. Only the dispatcher's
// goroutine calls it, during Run.
type Schedule interface {
	// Next is the next arrival, in order of Due; false at the end of the schedule.
	Next() (Arrival, bool)
	// Dispatched tells how late the dispatcher handed the latest arrival to its user, behind
	// its Due: the schedule's own lateness, which the wait for a busy visitor comes after.
	Dispatched(late time.Duration)
}

// SetSchedule makes the run take its arrivals from s instead of from Config.Rate, whose value
// then only describes the schedule (its mean rate) in the result; Config.MaxUsers still caps
// the users, and Config.Duration still ends the run. Call it before Run. The run sends the
// arrivals of each visitor through one user at a time, with that visitor's cookie jar (see
// runSchedule). Shards do not apply.
func (l *Loader) SetSchedule(s Schedule) { l.schedule = s }
