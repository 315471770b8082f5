package stats

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/webload/webload/internal/golden"
)

// savedFixtures are results saved by an earlier release (testdata/saved/README.md says how they
// were made). Whatever the code inside does, they must load, report, compare and merge to the
// figures in testdata/saved/golden, which -update rewrites.
var savedFixtures = []string{"closed", "repeat", "open", "browser", "shard0", "shard1", "open-shard0", "open-shard1",
	"db-mysql", "db-two", "db-shard0", "db-shard1", "login-extract", "login-extract-broken", "ladder", "ladder-b", "capacity", "capacity-b", "checks"}

func loadSaved(t testing.TB, name string) Report {
	t.Helper()
	rep, err := ReadJSON(filepath.Join("testdata", "saved", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func textOf(t *testing.T, rep *Report, opt TextOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, rep, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func savedGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "saved", "golden", name), got, *update)
}

func TestSavedResultsReport(t *testing.T) {
	t.Parallel()
	for _, name := range savedFixtures {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep := loadSaved(t, name)
			savedGolden(t, name+".txt", textOf(t, &rep, TextOptions{Layout: Siege40}))
			savedGolden(t, name+"-per-url.txt", textOf(t, &rep, TextOptions{Layout: Siege41, PerURL: true}))
			// Saved again, a result is the file it was read from, byte for byte, but for the
			// version of the format this build writes.
			saved, err := os.ReadFile(filepath.Join("testdata", "saved", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			saved = withFormatVersion(t, saved)
			if got := jsonOf(t, &rep); !bytes.Equal(got, saved) {
				t.Errorf("saved again, %s.json differs:\n%s", name, got)
			}
			if err := rep.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSavedResultsCompare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, base, other string }{
		{"closed-repeat", "closed", "repeat"},
		{"repeat-closed", "repeat", "closed"},
		{"open-closed", "open", "closed"},
		{"shard0-shard1", "shard0", "shard1"},
		{"closed-db-mysql", "closed", "db-mysql"},
		{"db-mysql-db-two", "db-mysql", "db-two"},
		{"login-extract-broken", "login-extract", "login-extract-broken"},
		{"ladder-ladder-b", "ladder", "ladder-b"},
		{"closed-ladder", "closed", "ladder"},
		{"capacity-capacity-b", "capacity", "capacity-b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmp, err := Compare([]Report{loadSaved(t, tc.base), loadSaved(t, tc.other)}, true)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := cmp.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			savedGolden(t, "compare-"+tc.name+".txt", b.Bytes())
			savedGolden(t, "compare-"+tc.name+".json", jsonOf(t, cmp))
		})
	}
}

func TestSavedResultsMerge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		shards []string
	}{
		{"shards", []string{"shard0", "shard1"}},
		{"shards-reversed", []string{"shard1", "shard0"}},
		{"open-shards", []string{"open-shard0", "open-shard1"}},
		{"db-shards", []string{"db-shard0", "db-shard1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var shards []Report
			for _, s := range tc.shards {
				shards = append(shards, loadSaved(t, s))
			}
			rep, err := Merge(shards)
			if err != nil {
				t.Fatal(err)
			}
			name := "merge-" + tc.name
			savedGolden(t, name+".txt", textOf(t, &rep, TextOptions{PerURL: true}))
			savedGolden(t, name+".json", jsonOf(t, &rep))
			if err := rep.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// Combine of saved runs gives the figures it gave when they were saved: a saved --repeat series
// is the combination of its runs, to the last digit.
func TestSavedResultsCombine(t *testing.T) {
	t.Parallel()
	series := loadSaved(t, "repeat")
	again, err := Combine(series.Repeats)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonOf(t, &again), jsonOf(t, &series); !bytes.Equal(got, want) {
		t.Errorf("Combine of the saved runs differs from the saved series:\n--- got\n%s\n--- want\n%s", got, want)
	}
	for _, tc := range []struct {
		name string
		runs []string
	}{
		{"closed-shard0", []string{"closed", "shard0"}},
		{"open-closed", []string{"open", "closed"}},
		{"browser-browser", []string{"browser", "browser"}},
		{"login-extract-broken", []string{"login-extract", "login-extract-broken"}},
	} {
		var runs []Report
		for _, r := range tc.runs {
			runs = append(runs, loadSaved(t, r))
		}
		rep, err := Combine(runs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		savedGolden(t, "combine-"+tc.name+".txt", textOf(t, &rep, TextOptions{PerURL: true}))
		savedGolden(t, "combine-"+tc.name+".json", jsonOf(t, &rep))
	}
}

// A saved capacity search prints its steps and capacity line as the search did, whatever the
// release that saved it.
func TestSavedCapacitySearches(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"capacity", "capacity-b"} {
		rep := loadSaved(t, name)
		if rep.Capacity == nil {
			t.Fatalf("%s: no capacity search", name)
		}
		var b bytes.Buffer
		if err := WriteCapacity(&b, rep.Capacity); err != nil {
			t.Fatal(err)
		}
		savedGolden(t, name+"-search.txt", b.Bytes())
	}
}
