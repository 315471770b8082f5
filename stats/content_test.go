package stats

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/webload/webload/content"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// learnedProfile fingerprints bodies as one URL's answers.
func learnedProfile(bodies ...string) content.Profile {
	l := content.NewLearner(content.Options{})
	var s content.Scanner
	for _, b := range bodies {
		if l.Sample(200, []byte("text/html")) {
			l.Observe(&s, []byte(b))
		}
	}
	return l.Profile()
}

// contentReport records one run of two URLs whose first answered profile p; the second got
// no answer.
func contentReport(t *testing.T, p content.Profile, info RunInfo) Report {
	t.Helper()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}, {Method: "GET", URL: "http://127.0.0.1/b"}}
	rec := NewRecorder(targets, Options{})
	rec.Record([]loader.Result{{Target: 0, Status: 200, Latency: time.Millisecond, BodyBytes: 10}})
	return rec.Report(loader.Outcome{Elapsed: time.Second, Started: time.Unix(1e9, 0), Content: []*content.Profile{&p, nil}}, info, "")
}

func TestContentInResults(t *testing.T) {
	t.Parallel()
	one := learnedProfile("<p>Price: 15.65 EUR</p><i>ad 1</i>", "<p>Price: 15.65 EUR</p><i>ad 2</i>")
	two := learnedProfile("<p>Price: 15.65 EUR</p><i>ad 3</i>")
	rep := contentReport(t, one, RunInfo{Version: "test"})
	if got := rep.URLs[0].Content; got == nil || !reflect.DeepEqual(*got, one) {
		t.Fatalf("URL row's content %+v, want the loader's profile", got)
	}
	if rep.URLs[1].Content != nil {
		t.Errorf("a URL without answers has content %+v", rep.URLs[1].Content)
	}

	path := filepath.Join(t.TempDir(), "r.json")
	if err := SaveJSON(path, &rep); err != nil {
		t.Fatal(err)
	}
	loaded, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded.URLs[0].Content, rep.URLs[0].Content) || loaded.URLs[1].Content != nil {
		t.Errorf("saved and loaded, content %+v, want %+v", loaded.URLs[0].Content, rep.URLs[0].Content)
	}

	want := content.Merge(one, two)
	series, err := Combine([]Report{rep, contentReport(t, two, RunInfo{})})
	if err != nil {
		t.Fatal(err)
	}
	if got := series.URLs[0].Content; got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("combined content %+v, want the profiles merged, %+v", got, want)
	}
	shards := []Report{
		contentReport(t, two, RunInfo{Test: "same", Shard: &ShardInfo{Index: 1, Count: 2}}),
		contentReport(t, one, RunInfo{Test: "same", Shard: &ShardInfo{Index: 0, Count: 2}}),
	}
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	if got := merged.URLs[0].Content; got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("merged content %+v, want %+v", got, want)
	}
}
