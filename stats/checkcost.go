package stats

import (
	"fmt"

	"github.com/webload/webload/loader"
)

// CheckStats are what judging the response checks (--check, #@check) cost the client. Each
// answer is judged after its last byte, so this time is in no response time; but a user that
// judges an answer sends nothing meanwhile, so when judging takes longer than the server took
// to answer, the client, not the server, limited the run.
type CheckStats struct {
	// Answers counts the answers whose checks were judged.
	Answers int64 `json:"answers"`
	// Time is the seconds the users spent judging them, in all: the monotonic clock's time on
	// each user's goroutine, which on a busy machine includes waiting for a CPU.
	Time float64 `json:"time"`
	// Mean is Time per answer judged, in seconds.
	Mean float64 `json:"mean"`
}

// checkCost is CheckStats as a figure that adds itself.
type checkCost struct {
	answers int64
	time    float64 // seconds
}

func (c *checkCost) add(o checkCost) {
	c.answers += o.answers
	c.time += o.time
}

func outcomeChecks(o loader.Outcome) checkCost {
	return checkCost{answers: o.Checked, time: o.CheckTime.Seconds()}
}

// view is nil for a run that judged no answer: one without checks, or without answers to them.
func (c checkCost) view() *CheckStats {
	if c.answers == 0 {
		return nil
	}
	return &CheckStats{Answers: c.answers, Time: c.time, Mean: c.time / float64(c.answers)}
}

func (c *checkCost) load(s *CheckStats) {
	if s != nil {
		c.add(checkCost{answers: s.Answers, time: s.Time})
	}
}

// saneChecks refuses check figures webload cannot have written: below zero, or more answers
// judged than requests ended.
func saneChecks(at string, r *Report) error {
	c := r.Checks
	if c == nil {
		return nil
	}
	at += "checks."
	if err := nonNegative(at, []count{{"answers", c.Answers}}); err != nil {
		return err
	}
	if err := timesNonNegative(at, []float64{c.Time, c.Mean}, "time", "mean"); err != nil {
		return err
	}
	if c.Answers > r.Requests {
		return fmt.Errorf("%sanswers is %d, more than the %d requests", at, c.Answers, r.Requests)
	}
	return nil
}
