package stats

import "fmt"

// Verdict is the outcome of one check on a result: an --assert gate on a run or a
// --max-regression limit on a comparison. Both kinds are printed, written as JUnit and counted
// for the exit code the same way.
type Verdict struct {
	// Check names the check, as the JUnit test case does: a gate's expression as written
	// ("url:/checkout p99<2s"), or a limit's run and figure as written ("v2: p95").
	Check string
	// Figure is the canonical name of the figure checked; "" when the check names none.
	Figure string
	Passed bool
	// Inconclusive marks a limit that neither held nor failed: the figure moved beyond the limit
	// but its test cannot tell the change from noise. Passed is false; Failed does not count it.
	Inconclusive bool
	// Measured is the figure in its base unit (seconds, percent, ...): a gate's value, or a
	// limit's candidate value. A url gate that matches several URLs must hold for each, so this
	// is the worst of them. NaN when nothing could be measured.
	Measured float64
	// Text is one line for people, such as "p95 = 812.345 ms, allowed < 800 ms: FAILED".
	Text string
}

// Failed counts the checks that failed, the inconclusive ones aside.
func Failed(verdicts []Verdict) int {
	n := 0
	for _, v := range verdicts {
		if !v.Passed && !v.Inconclusive {
			n++
		}
	}
	return n
}

// CountInconclusive counts the checks that could not decide.
func CountInconclusive(verdicts []Verdict) int {
	n := 0
	for _, v := range verdicts {
		if v.Inconclusive {
			n++
		}
	}
	return n
}

// Fail is the verdict on a gate that could not be measured at all.
func (res Verdict) Fail(reason string) Verdict {
	res.Passed = false
	res.Text = fmt.Sprintf("%s: %s: FAILED", res.Check, reason)
	return res
}
