// Package resulttest holds what the tests of the packages that make, judge and write results
// share: the results an earlier release saved, and runs whose figures were worked out by hand.
// It imports none of those packages, so the model's own tests can use it too.
package resulttest

import (
	"bytes"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Saved are the results saved by an earlier release (stats/testdata/saved/README.md says how
// they were made). Whatever the code inside does, they must load, report, compare and merge to
// the same figures, which the goldens of report and judge keep.
var Saved = []string{"closed", "repeat", "open", "browser", "shard0", "shard1", "open-shard0", "open-shard1",
	"db-mysql", "db-two", "db-shard0", "db-shard1", "login-extract", "login-extract-broken", "ladder", "ladder-b",
	"capacity", "capacity-b", "checks"}

// SavedPath is the file of a result an earlier release saved, by its name
// (stats/testdata/saved/README.md says how each was made).
func SavedPath(name string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "stats", "testdata", "saved", name+".json")
}

// Load reads the saved result name with read (stats.ReadJSON), failing the test if it cannot.
func Load[T any](t testing.TB, read func(path string) (T, error), name string) T {
	t.Helper()
	v, err := read(SavedPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const mib = 1 << 20

// KnownRun is a run whose every figure was worked out by hand (see stats' TestReportFigures):
// its URL list, the results its users had and how it ended.
func KnownRun() ([]urls.Target, []loader.Result, loader.Outcome) {
	targets := []urls.Target{
		{Method: "GET", URL: "http://127.0.0.1:8080/a", Source: "u:1"},
		{Method: "POST", URL: "http://127.0.0.1:8080/b", Source: "u:2"},
	}
	ms := time.Millisecond
	results := []loader.Result{
		{Target: 0, User: 0, Status: 200, Latency: 100 * ms, BodyBytes: mib},
		{Target: 0, User: 0, Status: 200, Latency: 200 * ms, BodyBytes: mib},
		{Target: 0, User: 1, Status: 200, Latency: 300 * ms, BodyBytes: mib},
		{Target: 1, User: 1, Status: 200, Latency: 400 * ms, BodyBytes: mib},
		{Target: 1, User: 1, Status: 404, Latency: 50 * ms, BodyBytes: mib / 2},
		{Target: 1, User: 0, Status: 500, Latency: 1000 * ms},
		{Target: 1, User: 0, Err: loader.ErrTimeout, Latency: 2000 * ms, AfterStop: true},
		{Target: 0, User: 0, Status: 401, Latency: 10 * ms},
	}
	out := loader.Outcome{
		Started:      time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		Elapsed:      2 * time.Second,
		Stop:         loader.TimeUp,
		Connections:  3,
		Users:        2,
		WireBytesIn:  5 * mib,
		WireBytesOut: mib / 4,
		ErrorSamples: map[loader.ErrKind]string{loader.ErrTimeout: "timeout"},
	}
	return targets, results, out
}

// versionKey is the line a result's format version is written on, after siege's twelve keys.
const versionKey = "  \"shortest_transaction\": "

// SetFormatVersion puts "format_version": v into a result saved before format_version, where
// webload writes it: after siege's keys.
func SetFormatVersion(t testing.TB, saved []byte, v string) []byte {
	t.Helper()
	i := bytes.Index(saved, []byte(versionKey))
	if i < 0 || bytes.Contains(saved, []byte(`"format_version"`)) {
		t.Fatal("not a result saved before format_version")
	}
	end := i + bytes.IndexByte(saved[i:], '\n') + 1
	return bytes.Join([][]byte{saved[:end], []byte(`  "format_version": ` + v + ",\n"), saved[end:]}, nil)
}
