package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// What judging the checks cost the users is in the JSON whenever answers were judged, with its
// units (answers, seconds in all and per answer), and in the text when it passes the mean
// response time; repeats add up. A run without checks writes none of it.
func TestCheckCost(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/", Source: "u:1"}}
	report := func(checked int64, spent time.Duration) stats.Report {
		rec := stats.NewRecorder(targets, stats.Options{})
		for range 4 {
			rec.Record([]loader.Result{{Target: 0, Status: 200, BodyBytes: 10, Decoded: 10, Latency: 2 * time.Millisecond}})
		}
		rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1, Checked: checked, CheckTime: spent}, stats.RunInfo{}, "")
		if err := rep.Check(); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	text := func(rep *stats.Report) string {
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
		want    *stats.CheckStats
		shown   string // the text line's figures, "" for no line
	}{
		{"no checks", 0, 0, nil, ""},
		{"cheap checks", 4, 400 * time.Microsecond, &stats.CheckStats{Answers: 4, Time: 0.0004, Mean: 0.0001}, ""},
		{"as long as the answers", 4, 8 * time.Millisecond, &stats.CheckStats{Answers: 4, Time: 0.008, Mean: 0.002}, ""},
		{"longer than the answers", 4, 2 * time.Second, &stats.CheckStats{Answers: 4, Time: 2, Mean: 0.5},
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
			var back stats.Report
			if err := json.Unmarshal(saved, &back); err != nil {
				t.Fatal(err)
			}
			if err := reread(t, &back); err != nil {
				t.Fatal(err)
			}
			both, err := stats.Combine([]stats.Report{back, back})
			if err != nil {
				t.Fatal(err)
			}
			var twice *stats.CheckStats
			if tc.want != nil {
				twice = &stats.CheckStats{Answers: 2 * tc.want.Answers, Time: 2 * tc.want.Time, Mean: tc.want.Mean}
			}
			if !sameChecks(both.Checks, twice) {
				t.Errorf("two repeats' checks %+v, want %+v", both.Checks, twice)
			}
		})
	}
}

// sameChecks compares check figures to a nanosecond, as they went through seconds.
func sameChecks(a, b *stats.CheckStats) bool {
	if a == nil || b == nil {
		return a == b
	}
	near := func(x, y float64) bool { return x-y < 1e-9 && y-x < 1e-9 }
	return a.Answers == b.Answers && near(a.Time, b.Time) && near(a.Mean, b.Mean)
}

// reread saves rep and reads it back as a saved result is read, with the checks that refuse a
// corrupt one; a result the test made by hand is given the version every run writes.
func reread(t *testing.T, rep *stats.Report) error {
	t.Helper()
	saved := *rep
	if saved.Run.Version == "" {
		saved.Run.Version = "test"
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := stats.SaveJSON(path, &saved); err != nil {
		t.Fatal(err)
	}
	_, err := stats.ReadJSON(path)
	return err
}
