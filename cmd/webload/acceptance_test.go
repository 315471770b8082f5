package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/contentsite"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

// TestMigrationAcceptance is a migration's acceptance run end to end: one URL list with the
// production host name, pointed at each stack with --connect-to, run twice against the old
// stack and once against a new one that broke four pages in the ways migrations do. Two runs of
// the same stack answer alike, although every response carries its own tokens and times; the
// new stack's four pages are named, each with its kind of change, and --check turns its
// database error pages into failed transactions.
func TestMigrationAcceptance(t *testing.T) {
	t.Parallel()
	stacks := map[string]*contentsite.Site{}
	for name, v := range map[string]contentsite.Variant{"old": contentsite.Baseline, "new": contentsite.Broken} {
		s, err := contentsite.Start(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		stacks[name] = s
	}
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	var lines []string
	for _, p := range contentsite.Paths {
		lines = append(lines, "http://www.shop.example"+p)
	}
	if err := os.WriteFile(list, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(stack, out string, more ...string) (string, int) {
		t.Helper()
		u, err := url.Parse(stacks[stack].URLs()[0])
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-q", "-c", "4", "-r", "20", "-f", list, "-o", filepath.Join(dir, out),
			"--connect-to", "www.shop.example:80:" + u.Host, "--label", out}, more...)
		_, stderr, code := webload(t, nil, args...)
		return stderr, code
	}
	for _, r := range [][2]string{{"old", "old1.json"}, {"old", "old2.json"}, {"new", "new.json"}} {
		if stderr, code := run(r[0], r[1]); code != 0 {
			t.Fatalf("%s: exit %d: %s", r[1], code, stderr)
		}
	}
	// The new stack with a check for its error page and a gate on availability: the check fails
	// the pages that answer the error with 200, so the gate breaks.
	if _, code := run("new", "checked.json", "--check", `body!~"database query error"`, "--assert", "availability>=99.9"); code != 1 {
		t.Fatalf("the new stack's checked run exits %d, want 1 (a broken gate)", code)
	}
	rep, err := stats.ReadJSON(filepath.Join(dir, "checked.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := rep.Errors["check"]; n != 2*8 {
		t.Errorf("%d failed checks, want 16 (2 pages, 8 requests each)", n)
	}

	same := filepath.Join(dir, "old1.json")
	stdout, stderr, code := webload(t, nil, "compare", "--max-content-changes", "0", same, filepath.Join(dir, "old2.json"))
	if code != 0 || !strings.Contains(stdout, "Content: the 10 URLs answer as the baseline did") {
		t.Errorf("the same stack twice: exit %d\n%s%s", code, stdout, stderr)
	}

	stdout, stderr, code = webload(t, nil, "compare", "--format", "json", "--max-content-changes", "4", same, filepath.Join(dir, "new.json"))
	if code != 0 {
		t.Fatalf("four changes allowed: exit %d\n%s", code, stderr)
	}
	var cmp struct {
		Content []judge.ContentChange `json:"content_changes"`
	}
	if err := json.Unmarshal([]byte(stdout), &cmp); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ change, excerpt string }{
		"/about":     {"status", ""},
		"/product/2": {"content", "Database error"},
		"/product/5": {"content", "Database error"},
		"/product/3": {"content", "18.65 EUR"},
	}
	if len(cmp.Content) != len(want) {
		t.Errorf("%d URLs changed, want %d: %+v", len(cmp.Content), len(want), cmp.Content)
	}
	for _, ch := range cmp.Content {
		w, ok := want[ch.Path]
		if !ok || ch.Change != w.change || !strings.Contains(ch.Excerpt, w.excerpt) {
			t.Errorf("%s: %s %q, want %s %q", ch.Path, ch.Change, ch.Excerpt, w.change, w.excerpt)
		}
		if ch.Path == "/product/3" && !strings.Contains(ch.Before, "15.65 EUR") {
			t.Errorf("the price page's excerpt before is %q, want the old price", ch.Before)
		}
	}
	if _, _, code := webload(t, nil, "compare", "--max-content-changes", "3", same, filepath.Join(dir, "new.json")); code != 1 {
		t.Errorf("three changes allowed: exit %d, want 1", code)
	}
}
