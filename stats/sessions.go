package stats

import (
	"strconv"

	"github.com/webload/webload/loader"
)

// ExtractStats count what a run's #@extract rules took out of responses. Taken counts values;
// Missing and Unsent count requests, each a failure of kind "extract".
type ExtractStats struct {
	// Taken counts the values taken: each answer of a line with rules that failed nothing
	// gave one value per rule.
	Taken int64 `json:"taken"`
	// Missing counts the answers that lacked a value their rules take.
	Missing int64 `json:"missing"`
	// Unsent counts the requests not sent because a value they needed was missing (an earlier
	// extraction of the same user failed).
	Unsent int64 `json:"unsent"`
}

// LoginStats are the login steps' figures (--login, --login-file), apart from the URL list's.
// Each step is a transaction as in siege, so the run's figures count them too. Times are seconds
// over the steps' transactions.
type LoginStats struct {
	// Logins counts the login sequences begun: each user's first, then one per relogin.
	Logins int64 `json:"logins"`
	// Requests counts the steps' requests, redirect hops included; Failed those that failed.
	Requests int64 `json:"requests"`
	Failed   int64 `json:"failed"`
	// Failures counts the failed steps by cause: a failure kind ("extract", "timeout"...) or
	// "HTTP " and a status siege counts as a failure.
	Failures map[string]int64 `json:"failures,omitempty"`
	Mean     float64          `json:"mean"`
	P95      float64          `json:"p95"`
	Max      float64          `json:"max"`
	// Histogram holds the steps' times in microseconds (HdrHistogram V2, base64).
	Histogram string `json:"histogram,omitempty"`
}

// extractCounts are ExtractStats as figures that add themselves, overall or of one URL.
type extractCounts struct{ taken, missing, unsent int64 }

func (e *extractCounts) add(o extractCounts) {
	e.taken += o.taken
	e.missing += o.missing
	e.unsent += o.unsent
}

// record books what res tells of extraction; rules is the number of its target's rules. An
// answer the rules read (the loader marks it: the end of the redirects the run follows) gave a
// value for each when it did not fail, unless it is a page its meta refresh left, whose rules
// read the page it leads to instead. One that failed a check is left out: a miss of its rules
// does not show.
func (e *extractCounts) record(res *loader.Result, rules int) {
	switch {
	case res.Err == loader.ErrExtract && res.Status == 0:
		e.unsent++
	case res.Err == loader.ErrExtract:
		e.missing++
	case res.Extracted && res.Err == loader.ErrNone && !(res.Refresh && !res.OffHost):
		e.taken += int64(rules)
	}
}

func (e extractCounts) view() *ExtractStats {
	if e == (extractCounts{}) {
		return nil
	}
	return &ExtractStats{Taken: e.taken, Missing: e.missing, Unsent: e.unsent}
}

func (e *extractCounts) load(s *ExtractStats) {
	if s != nil {
		e.add(extractCounts{taken: s.Taken, missing: s.Missing, unsent: s.Unsent})
	}
}

// loginFigures are the login steps' figures.
type loginFigures struct {
	logins, requests, failed int64
	failures                 map[string]int64 // nil until the first failure
	latency                  Latency
}

// record books a login step's result; first says it began a login sequence. A time beyond the
// histogram's range is counted as an overflow by the run's own figures, which record it too.
func (l *loginFigures) record(res *loader.Result, first bool) {
	l.requests++
	if first {
		l.logins++
	}
	if !res.Failed() {
		rt := res.ResponseTime()
		v, _ := toUnits(rt)
		l.latency.recordUnits(rt, v)
		return
	}
	l.failed++
	if l.failures == nil {
		l.failures = map[string]int64{}
	}
	l.failures[failureCause(res)]++
}

// failureCause names why a failed request failed, as the failure counts do.
func failureCause(res *loader.Result) string {
	if res.Err != loader.ErrNone {
		return res.Err.String()
	}
	return "HTTP " + strconv.Itoa(int(res.Status))
}

func (l *loginFigures) view() *LoginStats {
	if l.requests == 0 {
		return nil
	}
	s := &LoginStats{Logins: l.logins, Requests: l.requests, Failed: l.failed, Failures: l.failures, Max: l.latency.Max()}
	if l.latency.Count() > 0 {
		s.Mean = l.latency.Mean()
		s.P95 = l.latency.Quantile(95, s.Max)
		s.Histogram = l.latency.encode(nil)
	}
	return s
}

func (l *loginFigures) load(s *LoginStats, a *histAdder) error {
	if s == nil {
		return nil
	}
	l.logins += s.Logins
	l.requests += s.Requests
	l.failed += s.Failed
	for cause, n := range s.Failures {
		if l.failures == nil {
			l.failures = map[string]int64{}
		}
		l.failures[cause] += n
	}
	return l.latency.addSaved(s.Requests-s.Failed, s.Mean, s.Max, s.Histogram, a)
}

// loginSteps tells which login results begin a login sequence: those of the first step that are
// not the redirect hops of one. A user's results arrive in the order it made them, so a hop is a
// login result of the same target right after a redirect of it.
type loginSteps struct {
	first int32   // the first step's target; -1 before the first login result
	prev  []int32 // per user, 1 + the target of its last result when that was a login redirect
}

// begins says whether res (a login step's) begins a login sequence, and keeps what the next
// result needs to know.
func (s *loginSteps) begins(res *loader.Result) bool {
	if s.prev == nil {
		s.first = res.Target
	}
	for int(res.User) >= len(s.prev) {
		s.prev = append(s.prev, 0)
	}
	hop := s.prev[res.User] == res.Target+1
	s.prev[res.User] = 0
	if res.Redirected() && !res.OffHost {
		s.prev[res.User] = res.Target + 1
	}
	return res.Target == s.first && !hop
}

// other notes that the user of res made a request that is not a login step, which ends any
// login redirect chain it was on.
func (s *loginSteps) other(res *loader.Result) {
	if int(res.User) < len(s.prev) {
		s.prev[res.User] = 0
	}
}

// checkSessions verifies the extraction and login accounting for Report.Check: the URL rows'
// extract figures add up to the run's, and each is a part of what it is counted in.
func checkSessions(r *Report, add func(format string, args ...any)) {
	var sum extractCounts
	var loginRequests int64
	for _, u := range r.URLs {
		if u.ExtractUnsent > u.ExtractFailures || u.ExtractFailures > u.Failures {
			add("URL %s: %d requests not sent of %d extract failures of %d failures", u.URL, u.ExtractUnsent, u.ExtractFailures, u.Failures)
		}
		sum.add(extractCounts{taken: u.Extractions, missing: u.ExtractFailures - u.ExtractUnsent, unsent: u.ExtractUnsent})
		if u.Login {
			loginRequests += u.Hits + u.Failures
		}
	}
	if got, want := sum.view(), r.Extractions; (got == nil) != (want == nil) || got != nil && *got != *want {
		add("URLs count extractions %+v, the run %+v", got, want)
	}
	if l := r.Logins; l != nil && (l.Failed > l.Requests || l.Logins > l.Requests || loginRequests != l.Requests) {
		add("logins: %d made, %d failed of %d requests; login steps' rows count %d", l.Logins, l.Failed, l.Requests, loginRequests)
	}
}

// extractFailures is the run's requests that failed for a missing value, the extract_failures
// figure; not measured in a run without #@extract rules.
func extractFailures(r *Report) (float64, bool) {
	if r.Extractions == nil {
		return 0, false
	}
	return float64(r.Extractions.Missing + r.Extractions.Unsent), true
}

// loginFailures is the run's failed login requests, the login_failures figure; not measured in
// a run without login steps.
func loginFailures(r *Report) (float64, bool) {
	if r.Logins == nil {
		return 0, false
	}
	return float64(r.Logins.Failed), true
}
