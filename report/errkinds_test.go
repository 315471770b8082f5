package report

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// kindNamed is the failure kind of that name.
func kindNamed(t *testing.T, name string) loader.ErrKind {
	t.Helper()
	for _, k := range loader.ErrKinds() {
		if k.String() == name {
			return k
		}
	}
	t.Fatalf("no failure kind is named %q", name)
	return 0
}

// Every failure kind is counted, listed in the text's failed requests, saved, and read back: a
// saved result with a kind newer than the one that reads it is no corrupt one, and results
// with them combine.
func TestEveryFailureKindSavesAndLoads(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"too-many-1xx", "login", "refused"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			kind := kindNamed(t, name)
			rec := stats.NewRecorder([]urls.Target{{Method: "GET", URL: "http://127.0.0.1/"}}, stats.Options{})
			rec.Record([]loader.Result{
				{Status: 200, Latency: time.Millisecond, BodyBytes: 10, Decoded: 10},
				{Err: kind, Latency: time.Millisecond},
				{Err: kind, Start: time.Millisecond, Intended: time.Millisecond},
			})
			rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1,
				ErrorSamples: map[loader.ErrKind]string{kind: "why"}}, stats.RunInfo{Version: "test"}, "")
			if err := rep.Check(); err != nil {
				t.Fatal(err)
			}
			if rep.Errors[name] != 2 || rep.FailedTransactions != 2 {
				t.Fatalf("errors %v, %d failed; want 2 of %s", rep.Errors, rep.FailedTransactions, name)
			}
			if text := string(textOf(t, &rep, TextOptions{})); !containsLine(text, "Failed requests:\t"+name+": 2") {
				t.Errorf("text does not list the kind:\n%s", text)
			}
			path := filepath.Join(t.TempDir(), "r.json")
			if err := stats.SaveJSON(path, &rep); err != nil {
				t.Fatal(err)
			}
			saved, err := stats.ReadJSON(path)
			if err != nil {
				t.Fatal(err)
			}
			both, err := stats.Combine([]stats.Report{saved, saved})
			if err != nil {
				t.Fatal(err)
			}
			if both.Errors[name] != 4 || both.ErrorSamples[name] != "why" {
				t.Errorf("combined: errors %v, samples %v; want 4 of %s", both.Errors, both.ErrorSamples, name)
			}
		})
	}
}

// containsLine tells whether text has a line that begins with prefix.
func containsLine(text, prefix string) bool {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return true
		}
	}
	return false
}
