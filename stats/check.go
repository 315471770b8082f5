package stats

import (
	"fmt"
	"strings"
)

// Check verifies the report's accounting: every request that ended is counted exactly once,
// as a transaction or as a failure, and the breakdowns (status codes, error kinds, URLs,
// timeline) add up to the totals. A failure here is a bug in webload, never in the site.
func (r *Report) Check() error {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	if r.Requests != r.Transactions+r.FailedTransactions {
		add("requests %d != transactions %d + failed %d", r.Requests, r.Transactions, r.FailedTransactions)
	}
	// Answers that failed a check keep their status: they are in StatusCodes and, by status,
	// in CheckStatusCodes, and they are failures of kind "check", not failed responses.
	var statuses, failedStatuses, checked int64
	for code, n := range r.StatusCodes {
		statuses += n
		if FailedStatus(code) {
			failedStatuses += n
		}
	}
	for code, n := range r.CheckStatusCodes {
		checked += n
		if FailedStatus(code) {
			failedStatuses -= n
		}
	}
	var errs int64
	for _, n := range r.Errors {
		errs += n
	}
	// A result saved before answers that failed a check kept their status has no
	// CheckStatusCodes, and none of those answers in StatusCodes.
	if r.CheckStatusCodes != nil && checked != r.Errors["check"] {
		add("check status codes count %d answers, failed checks are %d", checked, r.Errors["check"])
	}
	if statuses != r.Transactions+failedStatuses+checked {
		add("status codes count %d responses, want transactions %d + failed responses %d + failed checks %d",
			statuses, r.Transactions, failedStatuses, checked)
	}
	if errs+failedStatuses != r.FailedTransactions {
		add("failures by kind %d + failed responses %d != failed %d", errs, failedStatuses, r.FailedTransactions)
	}
	if r.SuccessfulTransactions > r.Transactions {
		add("successful %d > transactions %d", r.SuccessfulTransactions, r.Transactions)
	}
	var hits, fails int64
	for _, u := range r.URLs {
		hits += u.Hits
		fails += u.Failures
		if u.Pages != nil { // a URL's resources are counted with its page
			hits += u.Pages.Resources - u.Pages.ResourceFailures
			fails += u.Pages.ResourceFailures
		}
	}
	if hits != r.Transactions || fails != r.FailedTransactions {
		add("URLs count %d transactions and %d failures, totals are %d and %d", hits, fails, r.Transactions, r.FailedTransactions)
	}
	checkSessions(r, add)
	var inTimeline int64
	for _, p := range r.Timeline {
		inTimeline += p.Requests
	}
	if inTimeline != r.Requests {
		add("timeline counts %d requests, total is %d", inTimeline, r.Requests)
	}
	for i := range r.Steps {
		if err := r.Steps[i].Check(); err != nil {
			add("step %d: %v", i+1, err)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("accounting check failed: %s", strings.Join(problems, "; "))
	}
	return nil
}
