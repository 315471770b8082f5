package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataOf is the JSON of an HTML report's data element.
func dataOf(t *testing.T, page []byte) map[string]any {
	t.Helper()
	const open = `<script type="application/json" id="data">`
	_, rest, ok := strings.Cut(string(page), open)
	blob, _, closed := strings.Cut(rest, "</script>")
	if !ok || !closed {
		t.Fatalf("not an HTML report:\n%.300s", page)
	}
	return decode(t, []byte(blob))
}

func runLabels(t *testing.T, data map[string]any) []string {
	t.Helper()
	var labels []string
	for _, r := range data["runs"].([]any) {
		labels = append(labels, r.(map[string]any)["label"].(string))
	}
	return labels
}

// TestHTMLOutputOfARun writes -o and --html from one run: the page holds the run, and nothing
// but the two files is left in the folder (both are written atomically).
func TestHTMLOutputOfARun(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	out, page := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
	_, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "5", "--label", "html run", "-o", out, "--html", page, site.URL+"/h")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	data := dataOf(t, html)
	if got := runLabels(t, data); len(got) != 1 || got[0] != "html run" {
		t.Errorf("runs %q, want the one labelled run", got)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("the folder holds %d files, want r.json and r.html", len(entries))
	}
}

// TestReportCommand renders saved results, and names the file when one cannot be read.
func TestReportCommand(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	base, cand := filepath.Join(dir, "base.json"), filepath.Join(dir, "new-stack.json")
	for _, args := range [][]string{
		{"-q", "-c", "2", "-r", "5", "--label", "old stack", "-o", base, site.URL + "/a"},
		{"-q", "-c", "2", "-r", "5", "-o", cand, site.URL + "/a"},
	} {
		if _, stderr, code := webload(t, nil, args...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	siege := filepath.Join(dir, "siege.json")
	corrupt := filepath.Join(dir, "corrupt.json")
	saved, err := os.ReadFile(cand)
	if err != nil {
		t.Fatal(err)
	}
	for path, content := range map[string]string{
		siege:   `{"transactions": 10, "availability": 100}`,
		corrupt: strings.Replace(string(saved), "\n  \"histogram\": \"", "\n  \"histogram\": \"broken", 1),
	} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string   // a line the error must be, when code != 0
		labels []string // the page's runs, when code == 0
	}{
		{name: "one result", args: []string{base}, labels: []string{"old stack"}},
		{name: "several, against the first; an unlabelled one by its file's name", args: []string{base, cand},
			labels: []string{"old stack", "new-stack"}},
		{name: "the flag after the files", args: []string{base, cand, "--title", "migration"}, labels: []string{"old stack", "new-stack"}},
		{name: "no results", args: nil, code: 2,
			stderr: "webload: report: give the results to show, saved with -o (webload report run.json --html run.html)"},
		{name: "missing file", args: []string{base, filepath.Join(dir, "nope.json")}, code: 2,
			stderr: "webload: read report: open " + filepath.Join(dir, "nope.json") + ": no such file or directory"},
		{name: "not a webload result", args: []string{siege}, code: 2,
			stderr: "webload: read report " + siege + ": not a webload result (written by webload -o or -j)"},
		{name: "corrupt histogram", args: []string{base, corrupt}, code: 2,
			stderr: "webload: read report " + corrupt + ": corrupt result: histogram: decode histogram: "},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			page := filepath.Join(dir, "page"+string(rune('a'+i))+".html")
			args := append([]string{"report", "--html", page}, tt.args...)
			stdout, stderr, code := webload(t, nil, args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if stdout != "" {
				t.Errorf("printed %q; the page goes to its file", stdout)
			}
			if tt.code != 0 {
				if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, tt.stderr) {
					t.Errorf("error %q, want one line starting %q", stderr, tt.stderr)
				}
				if _, err := os.Stat(page); err == nil {
					t.Error("a failed report left a page")
				}
				return
			}
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			data := dataOf(t, html)
			if got := runLabels(t, data); strings.Join(got, "|") != strings.Join(tt.labels, "|") {
				t.Errorf("runs %q, want %q", got, tt.labels)
			}
			if _, has := data["comparison"]; has != (len(tt.labels) > 1) {
				t.Errorf("comparison present: %v, want %v", has, len(tt.labels) > 1)
			}
		})
	}
	_, stderr, code := webload(t, nil, "report", base)
	if code != 2 || stderr != "webload: report: give --html FILE, the page to write\n" {
		t.Errorf("without --html: exit %d, %q", code, stderr)
	}
	_, stderr, code = webload(t, nil, "report", "--html", filepath.Join(dir, "no", "such", "dir.html"), base)
	if code != 2 || !strings.HasPrefix(stderr, "webload: write HTML report "+filepath.Join(dir, "no", "such", "dir.html")+": ") {
		t.Errorf("into a missing folder: exit %d, %q", code, stderr)
	}
}
