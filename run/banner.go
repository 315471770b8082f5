package run

import (
	"fmt"

	"github.com/webload/webload/internal/progress"
	"github.com/webload/webload/loader"
)

// banner says what is about to happen.
func banner(s *Spec) string {
	c := &s.Config
	var plan string
	switch {
	case c.Once:
		plan = "each URL once"
	case c.Reps > 0 && c.Duration > 0:
		plan = fmt.Sprintf("%d requests%s or %v, whichever ends first", c.Reps, perUser(c), c.Duration)
	case c.Reps > 0:
		plan = fmt.Sprintf("%d requests%s", c.Reps, perUser(c))
	case c.Duration > 0:
		plan = fmt.Sprintf("for %v", c.Duration)
	default:
		plan = "until Ctrl-C"
	}
	who := fmt.Sprintf("%d users", c.Users)
	if c.Rate > 0 {
		who = fmt.Sprintf("%.6g requests/s (open model, up to %d users)", c.Rate, c.MaxUsers)
	}
	if c.Ramp > 0 {
		who += fmt.Sprintf(" after a %v ramp", c.Ramp)
	}
	return fmt.Sprintf("** webload %s\n** %s, %s, over %d URLs\nLoading... Ctrl-C stops and reports what was measured.\n",
		s.Info.Version, who, plan, len(s.Targets))
}

func perUser(c *loader.Config) string {
	if c.Rate > 0 {
		return " in all"
	}
	return " each"
}

// plannedProgress is what the progress line measures against: the run time, else the number
// of requests.
func plannedProgress(s *Spec) progress.Plan {
	c := &s.Config
	plan := progress.Plan{Duration: c.Duration}
	switch {
	case c.Once:
		plan.Requests = int64(len(s.Targets))
	case c.Reps > 0 && c.Rate > 0:
		plan.Requests = int64(c.Reps)
	case c.Reps > 0:
		plan.Requests = int64(c.Reps) * int64(c.Users)
	}
	return plan
}
