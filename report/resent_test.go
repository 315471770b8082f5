package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// Requests resent after a kept-alive connection was closed under them are counted from the
// results to the report, its text and the sum of several runs; a result saved before the
// count existed reads as none resent.
func TestResentCounted(t *testing.T) {
	t.Parallel()
	rec, out := knownRun()
	rec.Record([]loader.Result{
		{Target: 0, Status: 200, Resent: true},
		{Target: 1, Status: 200, Resent: true},
		{Target: 1, Status: 200},
	})
	rep := rec.Report(out, stats.RunInfo{Version: "test", Users: 2}, "resent")
	if rep.Resent != 2 {
		t.Errorf("report: %d resent, want 2", rep.Resent)
	}
	var text strings.Builder
	if err := WriteText(&text, &rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Resent:\t\t\t           2 (") {
		t.Errorf("text report has no resent line:\n%s", text.String())
	}
	both, err := stats.Combine([]stats.Report{rep, rep})
	if err != nil {
		t.Fatal(err)
	}
	if both.Resent != 4 {
		t.Errorf("combined: %d resent, want 4", both.Resent)
	}

	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	if fields["resent"] != 2.0 {
		t.Errorf("JSON resent = %v, want 2", fields["resent"])
	}
	delete(fields, "resent")
	if data, err = json.Marshal(fields); err != nil {
		t.Fatal(err)
	}
	var old stats.Report
	if err := json.Unmarshal(data, &old); err != nil {
		t.Fatal(err)
	}
	if old.Resent != 0 {
		t.Errorf("old result: %d resent, want 0", old.Resent)
	}

	rec, out = knownRun()
	none := rec.Report(out, stats.RunInfo{Version: "test", Users: 2}, "none")
	text.Reset()
	if err := WriteText(&text, &none, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "Resent:") {
		t.Errorf("a run without resends shows a resent line:\n%s", text.String())
	}
}
