package stats

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// What judging the checks cost the users is in the JSON whenever answers were judged, with its
// units (answers, seconds in all and per answer), and in the text when it passes the mean
// response time; repeats add up. A run without checks writes none of it.
func TestCheckCost(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/", Source: "u:1"}}
	report := func(checked int64, spent time.Duration) Report {
		rec := NewRecorder(targets, Options{})
		for range 4 {
			rec.Record([]loader.Result{{Target: 0, Status: 200, BodyBytes: 10, Decoded: 10, Latency: 2 * time.Millisecond}})
		}
		rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1, Checked: checked, CheckTime: spent}, RunInfo{}, "")
		if err := rep.Check(); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	text := func(rep *Report) string {
		var b bytes.Buffer
		if err := WriteText(&b, rep, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	const line = "Check time:"
	for _, tc := range []struct {
		name    string
		checked int64
		spent   time.Duration
		want    *CheckStats
		shown   string // the text line's figures, "" for no line
	}{
		{"no checks", 0, 0, nil, ""},
		{"cheap checks", 4, 400 * time.Microsecond, &CheckStats{Answers: 4, Time: 0.0004, Mean: 0.0001}, ""},
		{"as long as the answers", 4, 8 * time.Millisecond, &CheckStats{Answers: 4, Time: 0.008, Mean: 0.002}, ""},
		{"longer than the answers", 4, 2 * time.Second, &CheckStats{Answers: 4, Time: 2, Mean: 0.5},
			"     500.000 ms per answer judged, more than the 2.000 ms mean response time: " +
				"the users spent longer judging answers than waiting for them (4 answers, 2.00 s in all, off the response times)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := report(tc.checked, tc.spent)
			if !sameChecks(rep.Checks, tc.want) {
				t.Errorf("checks %+v, want %+v", rep.Checks, tc.want)
			}
			out := text(&rep)
			i := strings.Index(out, line)
			switch {
			case tc.shown == "" && i >= 0:
				t.Errorf("a check time line for checks no slower than the answers:\n%s", out)
			case tc.shown != "" && !strings.Contains(out, line+"\t\t"+tc.shown):
				t.Errorf("text lacks %q:\n%s", line+"\t\t"+tc.shown, out)
			}
			saved, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil && bytes.Contains(saved, []byte(`"checks"`)) {
				t.Errorf("JSON of a run without checks has their cost: %s", saved)
			}
			var back Report
			if err := json.Unmarshal(saved, &back); err != nil {
				t.Fatal(err)
			}
			if err := back.sane(); err != nil {
				t.Fatal(err)
			}
			both, err := Combine([]Report{back, back})
			if err != nil {
				t.Fatal(err)
			}
			var twice *CheckStats
			if tc.want != nil {
				twice = &CheckStats{Answers: 2 * tc.want.Answers, Time: 2 * tc.want.Time, Mean: tc.want.Mean}
			}
			if !sameChecks(both.Checks, twice) {
				t.Errorf("two repeats' checks %+v, want %+v", both.Checks, twice)
			}
		})
	}
}

// sameChecks compares check figures to a nanosecond, as they went through seconds.
func sameChecks(a, b *CheckStats) bool {
	if a == nil || b == nil {
		return a == b
	}
	near := func(x, y float64) bool { return x-y < 1e-9 && y-x < 1e-9 }
	return a.Answers == b.Answers && near(a.Time, b.Time) && near(a.Mean, b.Mean)
}
