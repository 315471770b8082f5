package stats

import (
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

func TestCheckAcceptsRecordedRuns(t *testing.T) {
	t.Parallel()
	rec, out := knownRun()
	rep := rec.Report(out, RunInfo{}, "")
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	comb, err := Combine([]Report{rep, rep})
	if err != nil {
		t.Fatal(err)
	}
	if err := comb.Check(); err != nil {
		t.Errorf("combined: %v", err)
	}
}

func TestCheckCatchesMiscounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		spoil func(r *Report)
		want  string
	}{
		{"a request lost", func(r *Report) { r.Requests-- }, "requests 7 != transactions 6 + failed 2"},
		{"a failure counted twice", func(r *Report) { r.Errors[loader.ErrTimeout.String()]++ }, "failures by kind"},
		{"a status missing", func(r *Report) { r.StatusCodes["200"]-- }, "status codes count"},
		{"a URL hit missing", func(r *Report) { r.URLs[0].Hits-- }, "URLs count"},
		{"a timeline gap", func(r *Report) { r.Timeline[0].Requests-- }, "timeline counts"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec, out := knownRun()
			rep := rec.Report(out, RunInfo{}, "")
			tc.spoil(&rep)
			if err := rep.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check() = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// A visit the end of the run cut among its resources is the only visit of its URL: its
// resources are counted with it, the check passes, and the report says the page was cut.
func TestCheckAcceptsACutPage(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}}
	rec := NewRecorder(targets, Options{})
	rec.Record([]loader.Result{
		{Kind: loader.KindURL, Status: 200, BodyBytes: 500, Latency: time.Millisecond},
		{Kind: loader.KindResource, Status: 200, BodyBytes: 100, Latency: time.Millisecond, AfterStop: true},
		{Kind: loader.KindResource, Status: 200, BodyBytes: 100, Latency: time.Millisecond, AfterStop: true},
		{Kind: loader.KindPage, Status: 200, BodyBytes: 700, Latency: 2 * time.Millisecond, AfterStop: true},
	})
	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1, Stop: loader.TimeUp}, RunInfo{}, "")
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	p, u := rep.Pages, rep.URLs[0].Pages
	if p == nil || p.Pages != 0 || p.Cut != 1 || p.Resources != 2 || u == nil || u.Cut != 1 || u.Resources != 2 {
		t.Fatalf("pages %+v, URL pages %+v; want one cut visit with its 2 resources", p, u)
	}
	var b strings.Builder
	if err := WriteText(&b, &rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(0 failed, 1 more cut short by the end of the run)") {
		t.Errorf("the text report does not tell the cut page:\n%s", b.String())
	}
}
