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
	// StopReason is why the search ended: StopCompleted, or StopInterrupted by a signal, when
	// the capacity is only a lower bound and InterruptedAt the rate being measured. Results
	// saved before searches said have none, and were completed.
	StopReason    StopReason `json:"stop_reason,omitempty"`
	InterruptedAt float64    `json:"interrupted_at,omitempty"`
	// Searches are the searches of a repeated search (capacity --repeat N), in the order they
	// ran; Rate is then their median, and each search's steps are in its own result, under
	// the result's repeats. Absent for one search.
	Searches []CapacitySearch `json:"searches,omitempty"`
}

// CapacitySearch is one search of a repeated search: its capacity (0 for none found) and what
// it says of it.
type CapacitySearch struct {
	Rate float64 `json:"rate"`
	// AtLeast marks a capacity that is a lower bound: --to passed, or the steps ran out (or
	// the search was interrupted) before a higher rate failed.
	AtLeast bool `json:"at_least,omitempty"`
	// Judged is set when some step of the search passed or failed (see Capacity.Judged).
	Judged bool `json:"judged"`
}

// Interrupted tells whether a signal ended the search before it settled.
func (c *Capacity) Interrupted() bool { return c.StopReason == StopInterrupted }

// CapacityStep is one measured rate of a search.
type CapacityStep struct {
	// Rate is the offered rate, arrivals per second; TransactionRate what was completed.
	Rate            float64 `json:"rate"`
	TransactionRate float64 `json:"transaction_rate"`
	// P95 is in seconds, ErrorRate in percent of transactions, as --assert reads them.
	P95       float64 `json:"p95"`
	ErrorRate float64 `json:"error_rate"`
	// Passed is set when every gate held on enough measurements to judge it. A step neither
	// passed nor Inconclusive failed.
	Passed bool `json:"passed"`
	// EndedEarly marks a step stopped because it broke the SLO badly.
	EndedEarly bool `json:"ended_early,omitempty"`
	// Broke names the first gate the step failed and its value, such as "p95 812.345 ms".
	Broke string `json:"broke,omitempty"`
	// Inconclusive says why the step could not be judged, such as "12 transactions, p95 needs
	// 20": no gate failed, and some had too few measurements to hold. Such a step neither
	// passed nor failed. Results saved before searches judged this have none.
	Inconclusive string `json:"inconclusive,omitempty"`
	// Partial marks the step the search was interrupted in: its figures are those measured
	// until then, and it neither passed nor failed.
	Partial bool `json:"partial,omitempty"`
	// Again marks a second measurement of a rate measured before (see Settle).
	Again bool `json:"again,omitempty"`
}

// StepOutcome is how a search judged a step, beside the figures NewCapacityStep reads from
// its report.
type StepOutcome struct {
	Passed, EndedEarly bool
	// Inconclusive says why the step could not be judged; "" when it was.
	Inconclusive string
	// Partial marks a step cut short by the end of the search.
	Partial bool
	// Again marks a second measurement of a rate.
	Again bool
}

// NewCapacityStep sums up a step: its report, its verdicts on the SLO and how it was judged.
func NewCapacityStep(rate float64, rep *Report, verdicts []Verdict, o StepOutcome) CapacityStep {
	s := CapacityStep{Rate: rate, TransactionRate: rep.TransactionRate, P95: rep.Percentiles.P95,
		ErrorRate: share(rep.FailedTransactions, rep.Transactions), Passed: o.Passed, EndedEarly: o.EndedEarly, Again: o.Again}
	if r, ok := completedPerSecond(rep); ok && !o.EndedEarly && !o.Partial {
		s.TransactionRate = r
	}
	if o.Partial {
		s.Passed, s.Partial = false, true
		return s
	}
	if !o.Passed && !o.EndedEarly && o.Inconclusive != "" {
		s.Inconclusive = o.Inconclusive
		return s
	}
	for _, v := range verdicts {
		if !v.Passed && !v.Inconclusive && !math.IsNaN(v.Measured) {
			if f, ok := LookupFigure(v.Figure); ok {
				s.Broke = figureText(f, v.Measured)
				break
			}
		}
	}
	switch {
	case o.Passed || s.Broke != "" || rep.Transactions > 0:
	case rep.FailedTransactions > 0:
		s.Broke = "every request failed"
	default:
		s.Broke = "no transaction completed"
	}
	return s
}

// failed tells whether the step was judged and broke the SLO.
func (s *CapacityStep) failed() bool { return !s.Passed && s.Inconclusive == "" && !s.Partial }

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
	scale, prec, unit := Display(f, v)
	return f.Name + " " + strconv.FormatFloat(v*scale, 'f', prec, 64) + unit
}

// OfferedText writes an offered rate to a tenth, without trailing zeros: 400, 437.5.
func OfferedText(r float64) string {
	return strconv.FormatFloat(math.Round(r*10)/10, 'f', -1, 64)
}

// Verdict is the step's verdict in words: "passed", "FAILED, ended early: p95 1.2 s",
// "INCONCLUSIVE: 12 transactions, p95 needs 20".
func (s CapacityStep) Verdict() string {
	if s.Passed {
		return "passed"
	}
	if s.Partial {
		return "PARTIAL: the search was interrupted"
	}
	if s.Inconclusive != "" {
		return "INCONCLUSIVE: " + s.Inconclusive
	}
	verdict := "FAILED"
	if s.EndedEarly {
		verdict += ", ended early"
	}
	if s.Broke != "" {
		verdict += ": " + s.Broke
	}
	return verdict
}

// Line is the step as the search prints it when it ends; a second measurement of a rate says
// so.
func (s CapacityStep) Line() string {
	verdict := s.Verdict()
	if s.Again {
		verdict += " (measured again)"
	}
	return fmt.Sprintf("%9s req/s: %10.2f trans/sec, p95 %10.3f ms, errors %7.3f %%  %s",
		OfferedText(s.Rate), s.TransactionRate, s.P95*1000, s.ErrorRate, verdict)
}

// best is the last passing measurement of the capacity, and next the last measurement of the
// lowest rate above it that failed (see Settle); nil for none.
func (c *Capacity) best(t map[float64]*rateTally) (best, next *CapacityStep) {
	for i := range c.Steps {
		if s := &c.Steps[i]; s.Passed && s.Rate == c.Rate {
			best = s
		}
	}
	for rate, r := range t {
		if r.last >= 0 && c.Steps[r.last].failed() && rate > c.Rate && (next == nil || rate < next.Rate) {
			next = &c.Steps[r.last]
		}
	}
	return best, next
}

// Summary is the search's answer in one line, with how sure it is: "Capacity: 400 req/s (p95
// 23.456 ms, errors 0.000 % at that rate, confirmed by a second measurement; next step 420 req/s
// failed twice: p95 112.345 ms)". An interrupted search gives its capacity as a lower bound:
// "Capacity: at least 40 req/s (...; search interrupted at 80 req/s)", and so does one whose steps
// ran out before a rate failed.
func (c *Capacity) Summary() string {
	if len(c.Searches) > 0 {
		return c.seriesSummary()
	}
	t := c.tallies()
	best, next := c.best(t)
	cut := "search interrupted at " + OfferedText(c.InterruptedAt) + " req/s"
	switch {
	case best == nil && c.Interrupted():
		return "Capacity: none found: " + cut + " before a step passed"
	case best == nil:
		return "Capacity: none found: " + c.noneFound(next)
	}
	s := fmt.Sprintf("Capacity: %s req/s (p95 %.3f ms, errors %.3f %% at that rate, %s",
		OfferedText(c.Rate), best.P95*1000, best.ErrorRate, c.sureness(t))
	switch {
	case c.Interrupted():
		s = "Capacity: at least" + s[len("Capacity:"):] + "; " + cut
	case c.Capped:
		s = "Capacity: at least" + s[len("Capacity:"):] + "; the highest rate allowed (--to)"
	case next != nil:
		failed := "failed"
		if t[next.Rate].failures >= 2 {
			failed = "failed twice"
		}
		s += fmt.Sprintf("; next step %s req/s %s: %s", OfferedText(next.Rate), failed, next.Broke)
	default:
		// Every rate measured passed and the steps ran out before one failed: the site holds
		// more than this, how much more the search never saw.
		s = "Capacity: at least" + s[len("Capacity:"):] + "; no higher rate failed before --max-steps ran out"
	}
	return s + ")"
}

// noneFound says why no rate passed: the lowest rate that failed, and the steps that could
// not be judged.
func (c *Capacity) noneFound(failed *CapacityStep) string {
	var unjudged *CapacityStep // the highest rate below failed that could not be judged
	for i := range c.Steps {
		s := &c.Steps[i]
		if s.Inconclusive != "" && (failed == nil || s.Rate < failed.Rate) && (unjudged == nil || s.Rate >= unjudged.Rate) {
			unjudged = s
		}
	}
	switch {
	case failed == nil && unjudged == nil:
		return "no step was measured"
	case failed == nil:
		return fmt.Sprintf("no step could be judged (at %s req/s, %s)", OfferedText(unjudged.Rate), unjudged.Inconclusive)
	case unjudged == nil:
		return fmt.Sprintf("even %s req/s failed (%s)", OfferedText(failed.Rate), failed.Broke)
	}
	return fmt.Sprintf("%s req/s failed (%s), and the rates below could not be judged (at %s req/s, %s)",
		OfferedText(failed.Rate), failed.Broke, OfferedText(unjudged.Rate), unjudged.Inconclusive)
}

// Judged tells whether some step of the search passed or failed; a search whose steps were
// all inconclusive says nothing of the site. A repeated search is judged when each of its
// searches is: a median over searches that said nothing would pass for one over all.
func (c *Capacity) Judged() bool {
	if len(c.Searches) > 0 {
		for _, s := range c.Searches {
			if !s.Judged {
				return false
			}
		}
		return true
	}
	for i := range c.Steps {
		if s := &c.Steps[i]; s.Passed || s.failed() {
			return true
		}
	}
	return false
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
