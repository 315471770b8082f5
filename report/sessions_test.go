package report

import (
	"fmt"
	"slices"
	"testing"

	"github.com/webload/webload/stats"
)

// withSessions gives r login steps and a line that takes a value: its URL 3 and 4 become the
// login form and its POST, URL 1 takes a cart id that URL 2 needs.
func withSessions(r stats.Report) stats.Report {
	r.URLs = slices.Clone(r.URLs)
	made := int64(10)
	r.Logins = &stats.LoginStats{Logins: 20, Made: &made, FailedLogins: 10, NeverLoggedIn: 4, Requests: 50, Failed: 10,
		Failures: map[string]int64{"extract": 10}, Mean: 0.0421, P95: 0.0932, Max: 0.15}
	r.Extractions = &stats.ExtractStats{Taken: 39, Missing: 11, Unsent: 11}
	r.URLs[1].ExtractRules, r.URLs[1].Extractions, r.URLs[1].ExtractFailures = 1, 19, 1
	r.URLs[1].ExtractFailure = "cart_id json:cart.id: no value at cart.id"
	r.URLs[2].ExtractFailures, r.URLs[2].ExtractUnsent = 1, 1
	r.URLs[3].Login, r.URLs[3].ExtractRules, r.URLs[3].Extractions, r.URLs[3].ExtractFailures = true, 2, 20, 10
	r.URLs[4].Login, r.URLs[4].Method, r.URLs[4].ExtractFailures, r.URLs[4].ExtractUnsent = true, "POST", 10, 10
	return r
}

// The page shows what the text report shows of logins and extractions: the summary's login and
// extraction rows, and in the URL table the values each line took and missed, with the first
// message, and its login steps marked; a run without them shows none of it.
func TestSessionsInPage(t *testing.T) {
	t.Parallel()
	plain, logged := small("plain", 1), withSessions(small("wiki", 2))
	lockedOut := withSessions(small("locked out", 3))
	none := int64(0)
	lockedOut.Logins = &stats.LoginStats{Logins: 20, Made: &none, FailedLogins: 20, NeverLoggedIn: 20, Requests: 50, Failed: 50}
	// A result saved before webload counted how logins ended has only their requests.
	uncounted := withSessions(small("saved before", 4))
	uncounted.Logins = &stats.LoginStats{Logins: 20, Requests: 50, Failed: 10, Failures: map[string]int64{"extract": 10}}
	outcomes := []string{"Logins made", "Failed logins", "Users never logged in"}
	rows := []string{"Logins begun", "Logins made", "Failed logins", "Users never logged in", "Login requests", "Failed login requests",
		"Login step mean (ms)", "Login step p95 (ms)", "Values extracted", "Answers missing a value", "Requests not sent for a missing value"}
	for _, tc := range []struct {
		name    string
		results []stats.Report
		want    map[string][]string // summary row: its cells; nil for no such row
	}{
		{"a run without them", []stats.Report{plain}, map[string][]string{"Logins begun": nil, "Values extracted": nil}},
		{"a run with them", []stats.Report{logged}, map[string][]string{
			"Logins begun": {"20"}, "Logins made": {"10"}, "Failed logins": {"10"}, "Users never logged in": {"4"},
			"Login requests": {"50"}, "Failed login requests": {"10"}, "Login step mean (ms)": {"42.1"},
			"Login step p95 (ms)": {"93.2"}, "Values extracted": {"39"}, "Answers missing a value": {"11"},
			"Requests not sent for a missing value": {"11"}}},
		{"one of two", []stats.Report{plain, logged}, map[string][]string{"Logins begun": {"-", "20"}, "Users never logged in": {"-", "4"},
			"Values extracted": {"-", "39"}}},
		{"every login step failed", []stats.Report{lockedOut}, map[string][]string{"Logins begun": {"20"}, "Logins made": {"0"},
			"Users never logged in": {"20"}, "Failed login requests": {"50"}, "Login step p95 (ms)": {"-"}}},
		{"saved before logins were counted", []stats.Report{uncounted}, map[string][]string{"Logins begun": {"20"},
			"Logins made": nil, "Users never logged in": nil, "Failed login requests": {"10"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := pageData(t, render(t, tc.results, Options{}))
			texts, _ := summaryCells(t, d)
			for name, want := range tc.want {
				if got, ok := texts[name]; fmt.Sprint(got) != fmt.Sprint(want) || ok != (want != nil) {
					t.Errorf("summary row %q = %v (present %v), want %v", name, got, ok, want)
				}
			}
			var order []string
			for _, row := range d.Summary.Rows {
				if name := fmt.Sprint(row[0]); slices.Contains(rows, name) {
					order = append(order, name)
				}
			}
			want := rows
			if last := tc.results[len(tc.results)-1]; last.Logins != nil && last.Logins.Made == nil {
				want = slices.DeleteFunc(slices.Clone(rows), func(r string) bool { return slices.Contains(outcomes, r) })
			}
			if last := tc.results[len(tc.results)-1]; last.Logins != nil && !slices.Equal(order, want) {
				t.Errorf("session rows %v, want %v", order, want)
			}
		})
	}

	d := pageData(t, render(t, []stats.Report{plain, logged}, Options{}))
	for i, want := range [][]string{nil, {"Extracted", "Missing", "Not sent", "First missing value"}} {
		u := d.Runs[i].URLs
		var titles []string
		for _, c := range u.Columns {
			titles = append(titles, c.Title)
		}
		if got := titles[len(titles)-len(want):]; want != nil && !slices.Equal(got, want) || want == nil && slices.Contains(titles, "Extracted") {
			t.Errorf("run %d: URL columns %v, want them to end with %v", i, titles, want)
		}
		if want == nil {
			continue
		}
		cells := func(row int) []string {
			var out []string
			for _, c := range u.Rows[row] {
				if pair, ok := c.([]any); ok {
					c = pair[0]
				}
				out = append(out, fmt.Sprint(c))
			}
			return out
		}
		for row, wantCells := range map[int][]string{
			0: {"GET", "-", "0", "0", ""},
			1: {"GET", "19", "1", "0", "cart_id json:cart.id: no value at cart.id"},
			2: {"GET", "-", "1", "1", ""},
			3: {"login GET", "20", "10", "0", ""},
			4: {"login POST", "-", "10", "10", ""},
		} {
			c := cells(row)
			if got := append([]string{c[0]}, c[len(c)-4:]...); !slices.Equal(got, wantCells) {
				t.Errorf("URL row %d: method and extraction cells %q, want %q", row, got, wantCells)
			}
		}
	}
}
