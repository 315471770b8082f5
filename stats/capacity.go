package stats

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// Capacity is the outcome of a capacity search (webload capacity): the highest open-model rate
// whose step passed every SLO gate, and every step measured on the way. A result saved by the
// search is the report of the step at that rate with this attached; results of plain runs, and
// those saved before searches, have none.
type Capacity struct {
	// Rate is the capacity in arrivals per second; 0 when no step passed.
	Rate float64 `json:"rate"`
	// SLO lists the gates as written (--slo).
	SLO []string `json:"slo"`
	// Steps are in the order they were measured.
	Steps []CapacityStep `json:"steps"`
	// Capped is set when the highest rate the search could try (--to) passed: the capacity is
	// at least Rate.
	Capped bool `json:"capped,omitempty"`
}

// CapacityStep is one measured rate of a search.
type CapacityStep struct {
	// Rate is the offered rate, arrivals per second; TransactionRate what was completed.
	Rate            float64 `json:"rate"`
	TransactionRate float64 `json:"transaction_rate"`
	// P95 is in seconds, ErrorRate in percent of transactions, as --assert reads them.
	P95       float64 `json:"p95"`
	ErrorRate float64 `json:"error_rate"`
	Passed    bool    `json:"passed"`
	// EndedEarly marks a step stopped because it broke the SLO badly.
	EndedEarly bool `json:"ended_early,omitempty"`
	// Broke names the first gate the step failed and its value, such as "p95 812.345 ms".
	Broke string `json:"broke,omitempty"`
}

// NewCapacityStep sums up a step: its report and its verdicts on the SLO.
func NewCapacityStep(rate float64, rep *Report, verdicts []Verdict, passed, endedEarly bool) CapacityStep {
	s := CapacityStep{Rate: rate, TransactionRate: rep.TransactionRate, P95: rep.Percentiles.P95,
		ErrorRate: share(rep.FailedTransactions, rep.Transactions), Passed: passed, EndedEarly: endedEarly}
	if r, ok := completedPerSecond(rep); ok && !endedEarly {
		s.TransactionRate = r
	}
	for _, v := range verdicts {
		if !v.Passed && !math.IsNaN(v.Measured) {
			if f, ok := LookupFigure(v.Figure); ok {
				s.Broke = figureText(f, v.Measured)
				break
			}
		}
	}
	switch {
	case passed || s.Broke != "" || rep.Transactions > 0:
	case rep.FailedTransactions > 0:
		s.Broke = "every request failed"
	default:
		s.Broke = "no transaction completed"
	}
	return s
}

// completedPerSecond is the transactions completed per second within the step's time
// (Run.TimeLimit), by the timeline's whole intervals in it. The run's own rate divides by an
// elapsed time that includes the wait for the requests in flight at the end, which near
// capacity is a large part of a short step; and it counts those requests, so a site that
// fell behind would read as keeping up once its queue had drained.
func completedPerSecond(rep *Report) (float64, bool) {
	iv, limit := rep.TimelineInterval, rep.Run.TimeLimit
	if iv <= 0 || limit <= 0 {
		return 0, false
	}
	covered := math.Floor(limit/iv+1e-9) * iv
	if covered <= 0 {
		return 0, false
	}
	var n int64
	for _, p := range rep.Timeline {
		if p.Start < covered-iv/2 {
			n += p.Transactions
		}
	}
	return float64(n) / covered, true
}

// figureText is a figure's name and value as verdicts show it: "p95 812.345 ms".
func figureText(f Figure, v float64) string {
	scale, prec, unit := display(f, v)
	return f.Name + " " + strconv.FormatFloat(v*scale, 'f', prec, 64) + unit
}

// offeredText writes an offered rate to a tenth, without trailing zeros: 400, 437.5.
func offeredText(r float64) string {
	return strconv.FormatFloat(math.Round(r*10)/10, 'f', -1, 64)
}

// Line is the step as the search prints it when it ends.
func (s CapacityStep) Line() string {
	verdict := "passed"
	if !s.Passed {
		verdict = "FAILED"
		if s.EndedEarly {
			verdict += ", ended early"
		}
		if s.Broke != "" {
			verdict += ": " + s.Broke
		}
	}
	return fmt.Sprintf("%9s req/s: %10.2f trans/sec, p95 %10.3f ms, errors %7.3f %%  %s",
		offeredText(s.Rate), s.TransactionRate, s.P95*1000, s.ErrorRate, verdict)
}

// best is the step at the capacity, and next the lowest failing step above it; nil for none.
func (c *Capacity) best() (best, next *CapacityStep) {
	for i := range c.Steps {
		s := &c.Steps[i]
		switch {
		case s.Passed && s.Rate == c.Rate:
			best = s
		case !s.Passed && s.Rate > c.Rate && (next == nil || s.Rate < next.Rate):
			next = s
		}
	}
	return best, next
}

// Summary is the search's answer in one line: "Capacity: 400 req/s (p95 23.456 ms, errors
// 0.000 % at that rate; next step 420 req/s failed: p95 112.345 ms)".
func (c *Capacity) Summary() string {
	best, next := c.best()
	if best == nil {
		if next == nil {
			return "Capacity: none found: no step was measured"
		}
		return fmt.Sprintf("Capacity: none found: even %s req/s failed (%s)", offeredText(next.Rate), next.Broke)
	}
	s := fmt.Sprintf("Capacity: %s req/s (p95 %.3f ms, errors %.3f %% at that rate", offeredText(c.Rate), best.P95*1000, best.ErrorRate)
	switch {
	case c.Capped:
		s = "Capacity: at least" + s[len("Capacity:"):] + "; the highest rate allowed (--to)"
	case next != nil:
		s += fmt.Sprintf("; next step %s req/s failed: %s", offeredText(next.Rate), next.Broke)
	}
	return s + ")"
}

// WriteCapacity writes the steps and the summary line, as the search printed them.
func WriteCapacity(w io.Writer, c *Capacity) error {
	for _, s := range c.Steps {
		if _, err := fmt.Fprintln(w, s.Line()); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, c.Summary())
	return err
}
