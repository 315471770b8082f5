package judge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/changepoint"
	"github.com/webload/webload/stats"
)

// withURLs gives each night two URLs: /slow, whose p95 is the night's, and /rare, which gets
// too few hits for its figures to count and steps by ten times from night 5.
func withURLs(runs []stats.Report) []stats.Report {
	for i := range runs {
		rare := 0.1
		if i >= 5 {
			rare = 1
		}
		runs[i].URLs = []stats.URLStats{
			{Method: "GET", URL: "http://127.0.0.1:8080/slow", Hits: 900, P95: runs[i].Percentiles.P95},
			{Method: "GET", URL: "http://127.0.0.1:8080/rare?x=1", Hits: MinURLHits - 1, P95: rare},
		}
		runs[i].Label = "nightly " + string(rune('a'+i))
	}
	return runs
}

func TestFindChanges(t *testing.T) {
	t.Parallel()
	urlFigs, err := ParseURLFigures("p95")
	if err != nil {
		t.Fatal(err)
	}
	runs := withURLs(nightRuns(nightlyP95(1, 20, 0.5, 0.03, 0.2, 13)))
	tests := []struct {
		name     string
		window   int
		inWindow bool
	}{
		{"the step inside the window", 30, true},
		{"the window has absorbed the step", 5, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := FindChanges(runs, tc.window, changepoint.DefaultConfig(), urlFigs)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Changes) != 2 {
				t.Fatalf("%d change points, want the p95's and /slow's: %+v", len(s.Changes), s.Changes)
			}
			for i, c := range s.Changes {
				if c.Figure != "p95" || c.Unit != "ms" || c.Index != 13 || c.Night != "2026-11-14 02:30" || c.Label != "nightly n" ||
					!c.Regression || c.InWindow != tc.inWindow || c.BeforeNights != 13 || c.AfterNights != 7 ||
					!(c.Low < 200 && 200 < c.High) || c.Before < 450 || c.Before > 550 || c.P >= changepoint.DefaultP {
					t.Errorf("change %d: %+v", i, c)
				}
			}
			if c := s.Changes[1]; c.Method != "GET" || c.Path != "/slow" {
				t.Errorf("the URL's change: %+v", c)
			}
			var b strings.Builder
			if err := s.WriteChanges(&b); err != nil {
				t.Fatal(err)
			}
			want := "p95 ms GET /slow: from night 14 (2026-11-14 02:30, nightly n), "
			if !strings.Contains(b.String(), want) || strings.Contains(b.String(), "/rare") ||
				strings.Contains(b.String(), "before the last") == tc.inWindow {
				t.Errorf("text, want %q:\n%s", want, b.String())
			}
		})
	}
	if _, err := FindChanges(runs, 30, changepoint.Config{P: 2}, nil); err == nil {
		t.Error("a p of 2 was taken")
	}
}

// --max-regression holds the newest segment to the limit: a step half the window shares is
// forgotten by the median rule (the first case passed before change points), not by this one.
func TestCheckChanges(t *testing.T) {
	t.Parallel()
	revert := nightlyP95(3, 20, 0.5, 0.03, 0.2, 8)
	for i := 14; i < 20; i++ {
		revert[i] -= 0.2
	}
	tests := []struct {
		name   string
		p95    []float64
		window int
		limit  float64
		passed bool
		text   string
	}{
		{"a step 12 nights old", nightlyP95(1, 20, 0.5, 0.03, 0.2, 8), 30, 0.1, false, "newest p95 segment from night 9 (2026-11-09 02:30, night): "},
		{"a step within the limit", nightlyP95(1, 20, 0.5, 0.03, 0.2, 8), 30, 0.5, true, "allowed 50.0% worse): ok"},
		{"a step before the window", nightlyP95(1, 20, 0.5, 0.03, 0.2, 8), 10, 0.1, true, "began before the last 10 results, ok"},
		{"a step and its revert", revert, 30, 0.1, true, "from night 15"},
		{"faster", nightlyP95(4, 20, 0.5, 0.03, -0.2, 8), 30, 0.1, true, "-"},
		{"no change", nightlyP95(5, 20, 0.5, 0.03, 0, -1), 30, 0.1, true, "no change point in 20 results: ok"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runs := nightRuns(tc.p95)
			tr, err := NewTrend(runs[len(runs)-min(tc.window, len(runs)):], DefaultMinHistory)
			if err != nil {
				t.Fatal(err)
			}
			s, err := FindChanges(runs, tc.window, changepoint.DefaultConfig(), nil)
			if err != nil {
				t.Fatal(err)
			}
			tr.Changes = &s
			v := tr.CheckLimits([]Limit{{Key: "p95", Max: tc.limit}})
			if len(v) != 2 {
				t.Fatalf("%d verdicts: %+v", len(v), v)
			}
			if !v[0].Passed && tc.window == 30 {
				t.Errorf("the median rule failed night 20: %s", v[0].Text)
			}
			if v[1].Passed != tc.passed || !strings.Contains(v[1].Text, tc.text) || v[1].Figure != "p95" {
				t.Errorf("passed %v, want %v; %q, want %q", v[1].Passed, tc.passed, v[1].Text, tc.text)
			}
		})
	}
}

// A history shorter than --min-history is not judged by change points either: a new nightly
// job starts green.
func TestCheckChangesShortHistory(t *testing.T) {
	t.Parallel()
	runs := nightRuns([]float64{0.5, 0.5, 0.51, 0.49, 5})
	s, err := FindChanges(runs, 30, changepoint.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := s.CheckChanges([]Limit{{Key: "p95", Max: 0.1}}, DefaultMinHistory); len(v) != 0 {
		t.Errorf("judged: %+v", v)
	}
	if v := s.CheckChanges([]Limit{{Key: "p95", Max: 0.1}}, 3); len(v) != 1 || v[0].Passed {
		t.Errorf("not judged with 4 results before: %+v", v)
	}
}

// The trend's JSON carries the change points, a change from zero as null.
func TestChangesJSON(t *testing.T) {
	t.Parallel()
	p95 := nightlyP95(1, 20, 0.5, 0.03, 0.2, 13)
	runs := nightRuns(p95)
	for i := 13; i < 20; i++ {
		runs[i].FailedTransactions = 50 // from none: a change of +Inf
	}
	tr, err := NewTrend(runs, DefaultMinHistory)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FindChanges(runs, 30, changepoint.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr.Changes = &s
	var b strings.Builder
	if err := stats.WriteJSON(&b, tr); err != nil {
		t.Fatal(err)
	}
	var back struct {
		ChangePoints struct {
			Nights  int
			Changes []struct {
				Figure     string
				Index      int
				Change     *float64
				Regression bool
			}
		} `json:"change_points"`
	}
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range back.ChangePoints.Changes {
		got[c.Figure] = true
		if c.Index != 13 || !c.Regression || (c.Figure == "failed") != (c.Change == nil) {
			t.Errorf("%+v", c)
		}
	}
	if back.ChangePoints.Nights != 20 || !got["p95"] || !got["failed"] {
		t.Errorf("%+v", back.ChangePoints)
	}
}

// A result kept for change points alone reads the same figures as the whole result.
func TestForChanges(t *testing.T) {
	t.Parallel()
	r := fakeRun("night", 1, 500, 10*time.Millisecond, 5*time.Millisecond, time.Second)
	r.Repeats = []stats.Report{r, r}
	slim := ForChanges(r)
	if slim.Histogram != "" || slim.Repeats != nil || len(slim.URLs) != len(r.URLs) || slim.URLs[0].Histogram != "" || r.URLs[0].Histogram == "" {
		t.Fatalf("not slimmed, or the original changed: %+v", slim.URLs)
	}
	for _, f := range tableFigures([]stats.Report{r}) {
		v, ok := f.Run(&r)
		sv, sok := f.Run(&slim)
		if ok != sok || (ok && v != sv) {
			t.Errorf("%s: %v (%v), slimmed %v (%v)", f.Name, v, ok, sv, sok)
		}
	}
	urlFigs, err := ParseURLFigures("p50,p95,p99,max,rtime")
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.URLs {
		for _, f := range urlFigs {
			v, ok := f.URL(&r.URLs[i])
			sv, sok := f.URL(&slim.URLs[i])
			if ok != sok || v != sv {
				t.Errorf("%s of %s: %v (%v), slimmed %v (%v)", f.Name, r.URLs[i].URL, v, ok, sv, sok)
			}
		}
	}
}

// A step of the whole site moves every URL: the text lists the largest changes of URLs and
// says how many more the JSON holds.
func TestChangesTextManyURLs(t *testing.T) {
	t.Parallel()
	runs := nightRuns(nightlyP95(1, 20, 0.5, 0.03, 0.2, 13))
	for i := range runs {
		for u := range 25 {
			runs[i].URLs = append(runs[i].URLs, stats.URLStats{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1/page/%02d", u),
				Hits: 100, P95: runs[i].Percentiles.P95 * (1 + float64(u*i)/200)})
		}
	}
	urlFigs, err := ParseURLFigures("p95")
	if err != nil {
		t.Fatal(err)
	}
	s, err := FindChanges(runs, 30, changepoint.DefaultConfig(), urlFigs)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := s.WriteChanges(&b); err != nil {
		t.Fatal(err)
	}
	urlLines := strings.Count(b.String(), " GET /page/")
	more := len(s.Changes) - 1 - maxURLChangeLines // the run's p95, and the URLs' listed
	if urlLines != maxURLChangeLines || more < 1 || !strings.Contains(b.String(), fmt.Sprintf("and %d more change points of URLs", more)) {
		t.Errorf("%d change points, %d URL lines:\n%s", len(s.Changes), urlLines, b.String())
	}
	if !strings.Contains(b.String(), "GET /page/24:") { // the largest change
		t.Errorf("the largest change is not listed:\n%s", b.String())
	}
}
