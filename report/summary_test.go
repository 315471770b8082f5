package report

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/judge"
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

// summaryCells reads the summary as row name: its cells' texts and keys.
func summaryCells(t *testing.T, d decodedPage) (texts map[string][]string, keys map[string][]float64) {
	t.Helper()
	texts, keys = map[string][]string{}, map[string][]float64{}
	for _, row := range d.Summary.Rows {
		name := fmt.Sprint(row[0])
		for _, c := range row[1:] {
			pair, ok := c.([]any)
			if !ok {
				texts[name] = append(texts[name], fmt.Sprint(c))
				keys[name] = append(keys[name], math.NaN())
				continue
			}
			texts[name] = append(texts[name], fmt.Sprint(pair[0]))
			k, _ := pair[1].(float64)
			keys[name] = append(keys[name], k)
		}
	}
	return texts, keys
}

// TestSummaryOfASeries: a --repeat series shows its figures on the basis compare shows them
// (a per-run figure is the mean of the runs, ± their standard deviation; a percentile is of all
// their transactions together), and its column says so; a single run shows its own figures.
func TestSummaryOfASeries(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	single := steadyRun(5, at)
	single.Label = "single"
	// Runs of 4, 6 and 8 s at 20 requests a second: 80, 120 and 160 transactions.
	series, err := stats.Combine([]stats.Report{steadyRun(4, at), steadyRun(6, at.Add(9*time.Second)), steadyRun(8, at.Add(20*time.Second))})
	if err != nil {
		t.Fatal(err)
	}
	series.Label = "series"
	results := []stats.Report{single, series}
	d := pageData(t, render(t, results, Options{}))
	if got := []string{d.Summary.Columns[1].Title, d.Summary.Columns[2].Title}; got[0] != "single" || got[1] != "series (per run, mean of 3)" {
		t.Errorf("columns %q, want the single run's label and the series' with its basis", got)
	}
	if want := `"series" is a --repeat series of 3 runs`; len(d.SummaryNotes) != 1 || !strings.HasPrefix(d.SummaryNotes[0], want) ||
		!strings.HasSuffix(d.SummaryNotes[0], "Over the 3 runs together: 360 transactions (0 failed) in 18 s.") {
		t.Errorf("notes %q, want one on the series with its totals", d.SummaryNotes)
	}
	if d.Comparison == nil || len(d.Comparison.Figures.Columns) < 3 || d.Comparison.Figures.Columns[2].Title != "series (per run, mean of 3)" {
		t.Errorf("the comparison does not head the series' column %q", "series (per run, mean of 3)")
	}
	if want := "3 runs, 18 s elapsed in all"; !strings.Contains(d.Runs[1].About, want) {
		t.Errorf("the series is described as %q, want it to say %q", d.Runs[1].About, want)
	}
	if d.Runs[0].URLNote != "" || !strings.HasPrefix(d.Runs[1].URLNote, "Over the 3 runs of the series together: counts and bytes are their totals") {
		t.Errorf("per-URL notes %q and %q, want none for the single run and the series' basis", d.Runs[0].URLNote, d.Runs[1].URLNote)
	}
	texts, keys := summaryCells(t, d)
	tests := []struct {
		row          string
		single, mean string
	}{
		{"Transactions", "100", "120 ± 40"},
		{"Successful transactions", "100", "120 ± 40"},
		{"Requests", "100", "120 ± 40"},
		{"Elapsed time (s)", "5.00", "6.00 ± 2.00"},
		{"Transaction rate (/s)", "20.0", "20.0"}, // no spread, none shown,
		{"p95 (ms)", fmt.Sprint(sig(1000 * single.Percentiles.P95)), fmt.Sprint(sig(1000 * series.Percentiles.P95))},
	}
	for _, tt := range tests {
		if got := texts[tt.row]; len(got) != 2 || got[0] != tt.single || got[1] != tt.mean {
			t.Errorf("%s: %q, want %q and %q", tt.row, got, tt.single, tt.mean)
		}
	}
	// The figures compare shows agree with the summary's, figure by figure.
	cmp, err := judge.Compare(results, false)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for j, col := range cmp.Columns {
		f, ok := stats.LookupFigure(col.Key)
		if !ok || keys[f.Summary] == nil {
			continue
		}
		for i, row := range cmp.Rows {
			c := row.Cells[j]
			if !c.Measured {
				continue
			}
			v := c.Value
			if col.Unit == "s" && strings.HasSuffix(f.Summary, "(ms)") {
				v *= 1000
			}
			if got := keys[f.Summary][i]; math.Abs(got-v) > 1e-6*math.Max(1, math.Abs(v)) {
				t.Errorf("%s of %s: the summary says %v, compare %v", f.Name, row.Label, got, v)
			}
			checked++
		}
	}
	if checked < 14 {
		t.Errorf("%d figures checked against compare, want every one the summary shows", checked)
	}
}

func TestSpreadText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sd   float64
		show func(float64) cell
		want string
	}{
		{"none", 0, figure, ""},
		{"rounding noise", 1.2e-14, figure, ""},
		{"rounding noise in percent", 1e-9, percent, ""},
		{"a figure", 2, figure, " ± 2.00"},
		{"a small one", 0.00042, figure, " ± 0.000420"},
		{"a count", 1234, countOf, " ± 1\u202f234"},
		{"a latency", 0.0153, millis, " ± 15.3"},
	}
	for _, tt := range tests {
		if got := spreadText(tt.sd, tt.show); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A capacity search's result heads its summary with the capacity; a plain run beside it shows
// none, and plain runs alone have no such row.
func TestSummaryShowsCapacity(t *testing.T) {
	t.Parallel()
	search := stats.Report{Transactions: 10, Capacity: &stats.Capacity{Rate: 437.5}}
	tb := summaryTable([]stats.Report{search, {Transactions: 10}})
	if got := tb.Rows[0]; got[0].Text != "Capacity (req/s)" || got[1].Key != 437.5 || !math.IsNaN(got[2].Key) {
		t.Fatalf("first row %+v", got)
	}
	for _, row := range summaryTable([]stats.Report{{Transactions: 10}}).Rows {
		if row[0].Text == "Capacity (req/s)" {
			t.Fatal("a plain run shows a capacity")
		}
	}
}
