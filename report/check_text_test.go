package report

import (
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// A visit the end of the run cut among its resources is the only visit of its URL: its
// resources are counted with it, the check passes, and the report says the page was cut.
func TestCheckAcceptsACutPage(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}}
	rec := stats.NewRecorder(targets, stats.Options{})
	rec.Record([]loader.Result{
		{Kind: loader.KindURL, Status: 200, BodyBytes: 500, Latency: time.Millisecond},
		{Kind: loader.KindResource, Status: 200, BodyBytes: 100, Latency: time.Millisecond, AfterStop: true},
		{Kind: loader.KindResource, Status: 200, BodyBytes: 100, Latency: time.Millisecond, AfterStop: true},
		{Kind: loader.KindPage, Status: 200, BodyBytes: 700, Latency: 2 * time.Millisecond, AfterStop: true},
	})
	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1, Stop: loader.TimeUp}, stats.RunInfo{}, "")
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
