package report

import (
	"fmt"
	"testing"

	"github.com/webload/webload/stats"
)

// The summary shows the requests resent on a new connection and the page visits cut short by
// the end of the run, where the text report has them ("Resent:", "N more cut short"), and
// like the text leaves the rows out when no result had any.
func TestSummaryShowsResentAndCutPages(t *testing.T) {
	t.Parallel()
	const resent, cut = "Resent requests", "Pages cut short by the end of the run"
	withPages := func(r stats.Report, cut int64) stats.Report {
		r.Pages = &stats.PageStats{Pages: 10, Failed: 1, Cut: cut}
		return r
	}
	withResent := func(r stats.Report, n int64) stats.Report {
		r.Resent = n
		return r
	}
	tests := []struct {
		name    string
		results []stats.Report
		want    map[string][]string // row name: the cells after it; nil: no such row
	}{
		{"none", []stats.Report{withPages(small("a", 1), 0)}, map[string][]string{resent: nil, cut: nil}},
		{"resent", []stats.Report{withResent(small("a", 1), 3)}, map[string][]string{resent: {"3"}, cut: nil}},
		{"cut", []stats.Report{withPages(small("a", 1), 2)}, map[string][]string{resent: nil, cut: {"2"}}},
		{"only the second run", []stats.Report{withPages(small("a", 1), 0), withResent(withPages(small("b", 2), 1234), 7)},
			map[string][]string{resent: {"0", "7"}, cut: {"0", group(1234)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := pageData(t, render(t, tc.results, Options{}))
			rows := map[string][]string{}
			for _, row := range d.Summary.Rows {
				var cells []string
				for _, c := range row[1:] {
					if pair, ok := c.([]any); ok {
						c = pair[0]
					}
					cells = append(cells, fmt.Sprint(c))
				}
				rows[fmt.Sprint(row[0])] = cells
			}
			for name, want := range tc.want {
				got, ok := rows[name]
				if want == nil && ok {
					t.Errorf("%q shown as %v; want no such row", name, got)
				}
				if want != nil && fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%q = %v (present %v), want %v", name, got, ok, want)
				}
			}
		})
	}
}
