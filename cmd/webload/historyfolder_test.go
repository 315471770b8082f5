package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A history folder is read by its name as given, whatever characters it holds: a name with
// glob characters (nightly[prod]) holds its results; a file given as the folder is told so.
// compare and report read folders alike.
func TestHistoryFolderNames(t *testing.T) {
	t.Parallel()
	nights := savedNights(t, 2, 20*time.Millisecond)
	odd := filepath.Join(t.TempDir(), "nightly[prod] *?")
	if err := os.Rename(nights, odd); err != nil {
		t.Fatal(err)
	}
	results, err := os.ReadDir(odd)
	if err != nil || len(results) != 2 {
		t.Fatalf("%d results in %s: %v", len(results), odd, err)
	}
	file := filepath.Join(odd, results[0].Name())
	for _, tc := range []struct {
		name   string
		folder string
		code   int
		want   string // in stdout, or stderr when the exit is 2
	}{
		{"glob characters", odd, 0, "2 runs"},
		{"a file", file, 2, "--history " + file + ": not a folder"},
	} {
		for _, cmd := range [][]string{{"compare", "--history", tc.folder}, {"report", "--history", tc.folder, "--html", filepath.Join(t.TempDir(), "t.html")}} {
			t.Run(tc.name+" "+cmd[0], func(t *testing.T) {
				t.Parallel()
				stdout, stderr, code := webload(t, nil, cmd...)
				out := stdout
				if tc.code == 2 {
					out = stderr
				}
				if code != tc.code || cmd[0] == "compare" && !strings.Contains(out, tc.want) || tc.code == 2 && !strings.Contains(out, tc.want) {
					t.Errorf("exit %d, want %d and %q:\n%s%s", code, tc.code, tc.want, stdout, stderr)
				}
			})
		}
	}
}
