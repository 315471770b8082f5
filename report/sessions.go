package report

import (
	"slices"

	"github.com/webload/webload/stats"
)

// logins is a row of a login figure, which a report has when users logged in (--login,
// --login-file).
func logins(name string, show func(float64) cell, value func(l *stats.LoginStats) float64) figureRow {
	return partRow(name, show, func(r *stats.Report) *stats.LoginStats { return r.Logins }, value)
}

// loginLatency is a time of the login steps, which only steps that did not fail have.
func loginLatency(name string, value func(l *stats.LoginStats) float64) figureRow {
	return partLatency(func(r *stats.Report) *stats.LoginStats { return r.Logins }, logins(name, millis, value),
		func(l *stats.LoginStats) bool { return l.Requests == l.Failed })
}

// loginOutcome is a row of how the logins ended, which results saved before webload counted
// that lack.
func loginOutcome(name string, value func(l *stats.LoginStats) int64) figureRow {
	return figureRow{name: name, show: countOf, value: func(r *stats.Report) (float64, bool) {
		if r.Logins == nil || r.Logins.Made == nil {
			return 0, false
		}
		return float64(value(r.Logins)), true
	}}
}

// extractions is a row of an extraction figure, which a report has when lines took values from
// responses (#@extract).
func extractions(name string, value func(e *stats.ExtractStats) int64) figureRow {
	return partRow(name, countOf, func(r *stats.Report) *stats.ExtractStats { return r.Extractions },
		func(e *stats.ExtractStats) float64 { return float64(value(e)) })
}

// sessionRows are the summary's rows of logins and extractions.
var sessionRows = []figureRow{
	logins("Logins begun", countOf, func(l *stats.LoginStats) float64 { return float64(l.Logins) }),
	loginOutcome("Logins made", func(l *stats.LoginStats) int64 { return *l.Made }),
	loginOutcome("Failed logins", func(l *stats.LoginStats) int64 { return l.FailedLogins }),
	loginOutcome("Users never logged in", func(l *stats.LoginStats) int64 { return l.NeverLoggedIn }),
	logins("Login requests", countOf, func(l *stats.LoginStats) float64 { return float64(l.Requests) }),
	logins("Failed login requests", countOf, func(l *stats.LoginStats) float64 { return float64(l.Failed) }),
	loginLatency("Login step mean (ms)", func(l *stats.LoginStats) float64 { return l.Mean }),
	loginLatency("Login step p95 (ms)", func(l *stats.LoginStats) float64 { return l.P95 }),
	extractions("Values extracted", func(e *stats.ExtractStats) int64 { return e.Taken }),
	extractions("Answers missing a value", func(e *stats.ExtractStats) int64 { return e.Missing }),
	extractions("Requests not sent for a missing value", func(e *stats.ExtractStats) int64 { return e.Unsent }),
}

// extractColumns are the URL table's extraction columns, when some URL takes values or missed
// one; withMessage adds the first message of each URL's misses.
func extractColumns(urls []stats.URLStats) (cols []column, withMessage bool) {
	if !slices.ContainsFunc(urls, func(u stats.URLStats) bool { return u.ExtractRules > 0 || u.ExtractFailures > 0 }) {
		return nil, false
	}
	cols = []column{
		{Title: "Extracted", Num: true, Hint: "values the line's #@extract rules took from its answers"},
		{Title: "Missing", Num: true, Hint: "requests failed for a missing value: answers without one, and requests not sent for lack of one"},
		{Title: "Not sent", Num: true, Hint: "requests not sent because a value they needed was missing"},
	}
	withMessage = slices.ContainsFunc(urls, func(u stats.URLStats) bool { return u.ExtractFailure != "" })
	if withMessage {
		cols = append(cols, column{Title: "First missing value", Hint: "why the URL's first extract failure failed"})
	}
	return cols, withMessage
}

// extractCells are a URL's cells of the extraction columns.
func extractCells(u *stats.URLStats, withMessage bool) []cell {
	row := []cell{count(u.Extractions), count(u.ExtractFailures), count(u.ExtractUnsent)}
	if u.ExtractRules == 0 {
		row[0] = none() // takes nothing: no rules
	}
	if withMessage {
		row = append(row, text(u.ExtractFailure))
	}
	return row
}

// methodText is a URL's method, marked on a login step so the steps sort and read apart.
func methodText(u *stats.URLStats) string {
	if u.Login {
		return "login " + u.Method
	}
	return u.Method
}

// methodHint explains the login mark, when a URL has it.
func methodHint(urls []stats.URLStats) string {
	if slices.ContainsFunc(urls, func(u stats.URLStats) bool { return u.Login }) {
		return "a login step's is marked login"
	}
	return ""
}
