package stats

import (
	"strconv"

	"github.com/webload/webload/internal/hdrcodec"
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
	// Logins counts the logins begun: each user's first, one per relogin, and one per new try
	// after a failed login (a user whose login failed tries again before its next URL).
	Logins int64 `json:"logins"`
	// Made counts the logins whose every step passed (see loader.Result.FailsLogin) and that a
	// URL of the user's followed; nil in results saved before webload counted them. A login
	// neither made nor failed was cut short by the run's end.
	Made *int64 `json:"made,omitempty"`
	// FailedLogins counts the logins a step failed: no answer, a failed #@check, a missing
	// #@extract value, or a status of 400 or more. The URL the user was to load next was not
	// sent (a failure of kind "login").
	FailedLogins int64 `json:"failed_logins,omitempty"`
	// NeverLoggedIn counts the users whose logins all failed: at least one failed, none was
	// made (one cut short by the run's end is neither).
	NeverLoggedIn int64 `json:"users_never_logged_in,omitempty"`
	// Requests counts the steps' requests, redirect hops included; Failed those that failed
	// under siege's rules (no answer, 408, 5xx), as the steps' URL rows count them.
	Requests int64 `json:"requests"`
	Failed   int64 `json:"failed"`
	// Failures counts the failed logins by the cause of the step that failed them: a failure
	// kind ("extract", "check", "timeout"...) or "HTTP " and the status. (In results saved
	// before FailedLogins, the steps siege counted as failed.)
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
	logins, made, failedLogins, never, requests, failed int64
	// madeUnknown marks figures that hold a result saved before made, failedLogins and never
	// were counted: their sums would read as logins that all failed, so made is not shown.
	madeUnknown bool
	failures    map[string]int64 // nil until the first failure
	latency     Latency
}

// record books a login step's result; first says it began a login, fails that it failed one
// (see loginSteps.step). A time beyond the histogram's range is counted as an overflow by the
// run's own figures, which record it too.
func (l *loginFigures) record(res *loader.Result, first, fails bool) {
	l.requests++
	if first {
		l.logins++
	}
	if fails {
		l.failedLogins++
		if l.failures == nil {
			l.failures = map[string]int64{}
		}
		l.failures[failureCause(res)]++
	}
	if !res.Failed() {
		rt := res.ResponseTime()
		v, _ := hdrcodec.ToUnits(rt)
		l.latency.recordUnits(rt, v)
		return
	}
	l.failed++
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
	s := &LoginStats{Logins: l.logins, FailedLogins: l.failedLogins, NeverLoggedIn: l.never,
		Requests: l.requests, Failed: l.failed, Failures: l.failures, Max: l.latency.Max()}
	if !l.madeUnknown {
		made := l.made
		s.Made = &made
	}
	if l.latency.Count() > 0 {
		s.Mean = l.latency.Mean()
		s.P95 = l.latency.Quantile(95, s.Max)
		s.Histogram = l.latency.encode(nil)
	}
	return s
}

func (l *loginFigures) load(s *LoginStats, a *hdrcodec.HistAdder) error {
	if s == nil {
		return nil
	}
	l.logins += s.Logins
	if s.Made == nil {
		l.madeUnknown = true
	} else {
		l.made += *s.Made
	}
	l.failedLogins += s.FailedLogins
	l.never += s.NeverLoggedIn
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

// loginSteps follows each user's logins through its results, which arrive in the order the
// user made them: which login result begins a login (those of the first step that are not the
// redirect hops of one: a hop is a login result of the same target right after a redirect of
// it), and how each login ended. A login is made when a request of the user's that is no
// login step follows it with none of its steps failed; the loader sends none after a failed
// login (its URL is booked unsent, as a failure of kind "login"), nor after a login the run's
// end cut short.
type loginSteps struct {
	first int32       // the first step's target; -1 before the first login result
	prev  []int32     // per user, 1 + the target of its last result when that was a login redirect
	users []userLogin // per user, how its logins went
}

// userLogin is what a user's logins came to so far.
type userLogin uint8

const (
	loginPending userLogin = 1 << iota // a login is begun and none of its steps failed yet
	loginMade                          // a login of the user's was made
	loginFailed                        // a login of the user's failed
)

// step books a login step's result of a user in l, and tells whether it began a login and
// whether it failed one: the first of its steps to fail (the loader makes no more of them).
func (s *loginSteps) step(res *loader.Result, l *loginFigures) (begins, fails bool) {
	if s.prev == nil {
		s.first = res.Target
	}
	for int(res.User) >= len(s.prev) {
		s.prev = append(s.prev, 0)
		s.users = append(s.users, 0)
	}
	hop := s.prev[res.User] == res.Target+1
	s.prev[res.User] = 0
	if res.Redirected() && !res.OffHost {
		s.prev[res.User] = res.Target + 1
	}
	begins = res.Target == s.first && !hop
	u := &s.users[res.User]
	if begins {
		*u |= loginPending
	}
	if fails = res.FailsLogin() && *u&loginPending != 0; fails {
		if *u&(loginMade|loginFailed) == 0 {
			l.never++ // the user's first login failed; it counts until one is made
		}
		*u = *u&^loginPending | loginFailed
	}
	return begins, fails
}

// other books a request of a user that is not a login step in l: it ends any login redirect
// chain the user was on, and makes the login it had begun, when none of its steps failed.
func (s *loginSteps) other(res *loader.Result, l *loginFigures) {
	if int(res.User) >= len(s.prev) {
		return
	}
	s.prev[res.User] = 0
	u := &s.users[res.User]
	if *u&loginPending == 0 {
		return
	}
	l.made++
	if *u&(loginMade|loginFailed) == loginFailed {
		l.never-- // logged in at last
	}
	*u = *u&^loginPending | loginMade
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
		add("logins: %d begun, %d failed of %d requests; login steps' rows count %d", l.Logins, l.Failed, l.Requests, loginRequests)
	}
	if l := r.Logins; l != nil && l.Made != nil && (*l.Made+l.FailedLogins > l.Logins || l.NeverLoggedIn > l.FailedLogins || r.Errors["login"] > l.FailedLogins) {
		add("logins: %d begun, %d made, %d failed, %d users never logged in, %d URLs not sent for a failed login",
			l.Logins, *l.Made, l.FailedLogins, l.NeverLoggedIn, r.Errors["login"])
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

// loginFailures is the run's failed logins, the login_failures figure: a login a step failed
// (a status of 400 or more among them), or in results saved before webload counted logins
// that failed, its failed login requests; not measured in a run without login steps.
func loginFailures(r *Report) (float64, bool) {
	if r.Logins == nil {
		return 0, false
	}
	if r.Logins.Made == nil {
		return float64(r.Logins.Failed), true
	}
	return float64(r.Logins.FailedLogins), true
}

// neverLoggedIn is the run's users whose logins all failed, the users_never_logged_in figure;
// not measured in a run without login steps, nor in results saved before webload counted it.
func neverLoggedIn(r *Report) (float64, bool) {
	if r.Logins == nil || r.Logins.Made == nil {
		return 0, false
	}
	return float64(r.Logins.NeverLoggedIn), true
}
