package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/webload/webload/internal/golden"
	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/stats"
)

func textOf(t *testing.T, rep *stats.Report, opt TextOptions) []byte {
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
	if err := stats.WriteJSON(&b, v); err != nil {
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
	for _, name := range resulttest.Saved {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep := loadSaved(t, name)
			savedGolden(t, name+".txt", textOf(t, &rep, TextOptions{Layout: Siege40}))
			savedGolden(t, name+"-per-url.txt", textOf(t, &rep, TextOptions{Layout: Siege41, PerURL: true}))
			// Saved again, a result is the file it was read from, byte for byte, but for the
			// version of the format this build writes.
			saved, err := os.ReadFile(resulttest.SavedPath(name))
			if err != nil {
				t.Fatal(err)
			}
			saved = resulttest.SetFormatVersion(t, saved, fmt.Sprint(stats.FormatVersion))
			if got := jsonOf(t, &rep); !bytes.Equal(got, saved) {
				t.Errorf("saved again, %s.json differs:\n%s", name, got)
			}
			if err := rep.Check(); err != nil {
				t.Error(err)
			}
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
			var shards []stats.Report
			for _, s := range tc.shards {
				shards = append(shards, loadSaved(t, s))
			}
			rep, err := stats.Merge(shards)
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
	again, err := stats.Combine(series.Repeats)
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
		var runs []stats.Report
		for _, r := range tc.runs {
			runs = append(runs, loadSaved(t, r))
		}
		rep, err := stats.Combine(runs)
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
		if err := stats.WriteCapacity(&b, rep.Capacity); err != nil {
			t.Fatal(err)
		}
		savedGolden(t, name+"-search.txt", b.Bytes())
	}
}
