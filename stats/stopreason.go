package stats

// earlyStop is why a run made of several results ended (shards run at once, or the runs of a
// series): a result's early end when one had one (interrupted before aborted, with its
// --abort-on gate, before stopped at --failures), so that the whole never reads "completed"
// when a part stopped early; otherwise the first result's reason.
func earlyStop(runs []Report) (StopReason, *Abort) {
	for _, reason := range []StopReason{StopInterrupted, StopAborted, StopFailures} {
		for i := range runs {
			if r := &runs[i].Run; r.StopReason == reason {
				if reason != StopAborted {
					return reason, nil
				}
				return reason, r.Abort
			}
		}
	}
	return runs[0].Run.StopReason, nil
}

// Abort is an --abort-on gate that fired: the run stopped because the window's figure held.
type Abort struct {
	// Gate is the expression as written.
	Gate string `json:"gate"`
	// Value is the window's figure when it fired, in the figure's base unit: seconds for
	// times, percent for error_rate and availability, per second for trate.
	Value float64 `json:"value"`
	// At is when it fired, in seconds from the run's start, to the millisecond.
	At float64 `json:"at"`
	// Window is the window's width in seconds.
	Window float64 `json:"window"`
}
