package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository, seen from this package's folder, where go test runs.
const repoRoot = "../.."

// TestDocsOptionsUpToDate: the committed option reference is what the command line generates,
// so a flag added, renamed or reworded fails here until docs/options.md is regenerated.
func TestDocsOptionsUpToDate(t *testing.T) {
	t.Parallel()
	got, stderr, code := webload(t, nil, "docs", "options")
	if code != 0 || stderr != "" {
		t.Fatalf("webload docs options: exit %d, stderr %q", code, stderr)
	}
	want, err := os.ReadFile(filepath.Join(repoRoot, "docs", "options.md"))
	if err != nil {
		t.Fatalf("%v; generate it with: %s", err, optionsDocCommand)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	line := 0
	for line < len(g) && line < len(w) && g[line] == w[line] {
		line++
	}
	at := func(lines []string) string {
		if line < len(lines) {
			return lines[line]
		}
		return "(end of file)"
	}
	t.Errorf("docs/options.md differs from what the command line generates, from line %d:\n"+
		"  committed: %s\n  generated: %s\nregenerate it with: %s", line+1, at(w), at(g), optionsDocCommand)
}
