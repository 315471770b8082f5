package report

import (
	"fmt"
	"strings"

	"github.com/webload/webload/stats"
)

// writeSessions adds the login and extraction lines to the text report; nothing for a run
// without login steps or #@extract rules, so such runs read as before.
func writeSessions(b *strings.Builder, rep *stats.Report) {
	if l := rep.Logins; l != nil {
		fmt.Fprintf(b, "Logins:%s%12d begun: %s; %s\n", tabsAfter("Logins:"), l.Logins, loginOutcomes(l), loginTimes(l))
	}
	e := rep.Extractions
	if e == nil {
		return
	}
	fmt.Fprintf(b, "Extractions:%s%12d taken, %d missing (%d requests not sent for a missing value)\n",
		tabsAfter("Extractions:"), e.Taken, e.Missing, e.Unsent)
	label := "Failed extractions:"
	for _, u := range rep.URLs {
		if u.ExtractFailures == 0 {
			continue
		}
		fmt.Fprintf(b, "%s%s%s %s: %d missing, %d not sent", label, tabsAfter(label), u.Method, u.URL,
			u.ExtractFailures-u.ExtractUnsent, u.ExtractUnsent)
		if u.ExtractFailure != "" {
			fmt.Fprintf(b, "; first: %s", u.ExtractFailure)
		}
		b.WriteString("\n")
		label = ""
	}
	// A run that kept no message per URL kept the first of all.
	if msg := rep.ErrorSamples["extract"]; label == "" && msg != "" && !hasExtractMessage(rep) {
		fmt.Fprintf(b, "%sfirst: %s\n", tabsAfter(""), msg)
	}
}

func hasExtractMessage(rep *stats.Report) bool {
	for _, u := range rep.URLs {
		if u.ExtractFailure != "" {
			return true
		}
	}
	return false
}

// loginOutcomes says how the logins ended and how many users never logged in; of a result saved
// before webload counted them, how many login requests failed.
func loginOutcomes(l *stats.LoginStats) string {
	if l.Made == nil {
		failed := "0 failed"
		if l.Failed > 0 {
			failed = fmt.Sprintf("%d failed (%s)", l.Failed, counts(l.Failures, nil))
		}
		return fmt.Sprintf("%d requests, %s", l.Requests, failed)
	}
	s := fmt.Sprintf("%d made, %d failed", *l.Made, l.FailedLogins)
	if l.FailedLogins > 0 {
		s += " (" + counts(l.Failures, nil) + ")"
	}
	if cut := l.Logins - *l.Made - l.FailedLogins; cut > 0 {
		s += fmt.Sprintf(", %d cut short by the run's end", cut)
	}
	users := "users"
	if l.NeverLoggedIn == 1 {
		users = "user"
	}
	return s + fmt.Sprintf("; %d %s never logged in; %d requests", l.NeverLoggedIn, users, l.Requests)
}

// loginTimes gives the times of the login steps that succeeded.
func loginTimes(l *stats.LoginStats) string {
	if l.Failed == l.Requests {
		return "no step succeeded" // so no time to show
	}
	return fmt.Sprintf("a step took %.3f ms mean, %.3f ms p95, %.3f ms max", l.Mean*1000, l.P95*1000, l.Max*1000)
}
