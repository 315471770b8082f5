package report

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

// TestCellSortKeys pins what each kind of cell shows and sorts by, as the page's script reads
// it: a text cell is its text (sorted by it; in a column of figures, a figure not measured,
// sorted last both ways), a figure [text, key], a coloured change [text, key, class].
func TestCellSortKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    cell
		want string
	}{
		{name: "text", c: text("/cart?x=1"), want: `"/cart?x=1"`},
		{name: "count grouped, keyed by value", c: count(1234567), want: "[\"1\u202f234\u202f567\",1234567]"},
		{name: "milliseconds from seconds", c: millis(0.000159), want: `["0.159",0.159]`},
		{name: "not measured sorts last", c: none(), want: `"-"`},
		{name: "percent", c: percent(99.5), want: `["99.50 %",99.5]`},
		{name: "status code by number", c: statusCell("503"), want: `["503",503]`},
		{name: "odd status by text", c: statusCell("other"), want: `"other"`},
		{name: "worse change", c: changeCell(judge.CompareCell{Measured: true, Change: ptr(0.25), Worse: true}),
			want: `["+25.0 %",25,"worse"]`},
		{name: "better change", c: changeCell(judge.CompareCell{Measured: true, Change: ptr(-0.1)}),
			want: `["-10.0 %",-10,"better"]`},
		{name: "no change has no colour", c: changeCell(judge.CompareCell{Measured: true, Change: ptr(0.0)}),
			want: `["+0.0 %",0]`},
		{name: "growth from zero sorts above all", c: changeCell(judge.CompareCell{Measured: true, Change: ptr(math.Inf(1)), Worse: true}),
			want: `["+Inf",1.7976931348623157e+308,"worse"]`},
		{name: "tiny p-value", c: pCell(ptr(1e-9)), want: `["\u003c 0.001",1e-9]`},
		{name: "count in a comparison", c: compareValue(judge.CompareCell{Measured: true, Value: 984}), want: `["984",984]`},
		{name: "series mean with spread", c: compareValue(judge.CompareCell{Measured: true, Value: 49.81, Spread: 0.52}),
			want: `["49.8 ± 0.520",49.81]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("%s, want %s", b, tt.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestSig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0.0"}, {0.159, "0.159"}, {0.0012345, "0.00123"}, {1.5, "1.50"}, {12.34, "12.3"},
		{123.45, "123.5"}, {1234.5, "1234.5"}, {3600, "3600"}, {-0.5, "-0.500"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if got := sig(tt.v); got != tt.want {
				t.Errorf("sig(%v) = %q, want %q", tt.v, got, tt.want)
			}
		})
	}
}

func TestGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1\u202f000"}, {-1234567, "-1\u202f234\u202f567"}}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if got := group(tt.n); got != tt.want {
				t.Errorf("group(%d) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}

func TestCompareCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		codes []string
		want  []string
	}{
		{name: "by number, not text", codes: []string{"503", "200", "1000", "30"}, want: []string{"30", "200", "503", "1000"}},
		{name: "words after numbers", codes: []string{"b", "404", "a"}, want: []string{"404", "a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := slices.Clone(tt.codes)
			slices.SortFunc(got, compareCodes)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%v, want %v", got, tt.want)
			}
		})
	}
}

func TestStatusText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		codes map[string]int64
		want  string
	}{
		{name: "none", codes: nil, want: ""},
		{name: "commonest first", codes: map[string]int64{"404": 2, "200": 1234, "503": 5}, want: "200×1\u202f234, 503×5, 404×2"},
		{name: "ties by code", codes: map[string]int64{"500": 1, "302": 1}, want: "302×1, 500×1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := statusText(tt.codes); got != tt.want {
				t.Errorf("%q, want %q", got, tt.want)
			}
		})
	}
}

func TestURLNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		urls  []string
		names []string
	}{
		{name: "one site shows paths", urls: []string{"http://h:8080/a?x=1", "http://h:8080"},
			names: []string{"/a?x=1", "/"}},
		{name: "several sites show whole URLs", urls: []string{"http://a/x", "https://a/x"},
			names: []string{"http://a/x", "https://a/x"}},
		{name: "a relative URL shows whole URLs", urls: []string{"http://a/x", "/y"},
			names: []string{"http://a/x", "/y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := stats.Report{}
			for _, u := range tt.urls {
				rep.URLs = append(rep.URLs, stats.URLStats{Method: "GET", URL: u})
			}
			tab := urlTable(&rep)
			for i, want := range tt.names {
				if got := tab.Rows[i][1].Text; got != want {
					t.Errorf("row %d: %q, want %q", i, got, want)
				}
			}
		})
	}
}

func TestSummaryTable(t *testing.T) {
	t.Parallel()
	plain := stats.Report{Label: "plain", Transactions: 10, ResponseTime: 0.012}
	failed := stats.Report{FailedTransactions: 5}
	withPages := stats.Report{Label: "pages", Transactions: 3, Pages: &stats.PageStats{Pages: 2, Failed: 2}}
	tests := []struct {
		name    string
		results []stats.Report
		figure  string
		want    []string // the figure's cells, one per result; nil when the row must be absent
	}{
		{name: "a time", results: []stats.Report{plain}, figure: "Response time (ms)", want: []string{"12.0"}},
		{name: "no transaction has no time", results: []stats.Report{plain, failed}, figure: "Response time (ms)",
			want: []string{"12.0", "-"}},
		{name: "page rows only with pages", results: []stats.Report{plain}, figure: "Pages", want: nil},
		{name: "a run without pages beside one with", results: []stats.Report{plain, withPages}, figure: "Pages",
			want: []string{"-", "2"}},
		{name: "no page loaded has no page time", results: []stats.Report{withPages}, figure: "Page load p95 (ms)",
			want: []string{"-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tab := summaryTable(tt.results)
			if len(tab.Columns) != len(tt.results)+1 {
				t.Fatalf("%d columns for %d results", len(tab.Columns), len(tt.results))
			}
			var got []string
			for _, row := range tab.Rows {
				if row[0].Text == tt.figure {
					for _, c := range row[1:] {
						got = append(got, c.Text)
					}
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: %q, want %q", tt.figure, got, tt.want)
			}
		})
	}
}
