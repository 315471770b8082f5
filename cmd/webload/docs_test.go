package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/doclinks"
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

// TestDocsLinksResolve: every relative link of the README and of docs/ names a file that
// exists, and every #anchor a heading of the page it points into, by GitHub's rules.
func TestDocsLinksResolve(t *testing.T) {
	t.Parallel()
	files := []string{"README.md"}
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("found only %d pages under docs/", len(pages))
	}
	for _, p := range pages {
		files = append(files, filepath.ToSlash(filepath.Join("docs", filepath.Base(p))))
	}
	problems, err := doclinks.Check(repoRoot, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("broken link: %s", p)
	}
}

// TestDocsReadmeKeepsItsSetUpCommands: the README stays short, and it keeps the two commands
// a fresh checkout is tried with, the demo and the test command that CI (.ci/run) runs.
func TestDocsReadmeKeepsItsSetUpCommands(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if n := strings.Count(readme, "\n"); n > 200 {
		t.Errorf("README.md has %d lines; keep it under 200 and move the details to a page of docs/", n)
	}
	for _, cmd := range []string{"go run ./cmd/webload demo", "scripts/test.sh", ".ci/run"} {
		if !strings.Contains(readme, cmd) {
			t.Errorf("README.md no longer names %q", cmd)
		}
	}
}
