package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/content"
	"github.com/webload/webload/internal/contentsite"
	"github.com/webload/webload/stats"
)

// A --volatile pattern that does not compile, or that matches the empty string and so every
// place of every answer, is refused before the run.
func TestBadVolatilePattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, pattern, want string }{
		{"does not compile", "a(b", "webload: --volatile: error parsing regexp: missing closing ): `a(b`\n"},
		{"empty", "", `webload: --volatile: empty pattern: give a regular expression of what varies, such as "order [0-9]+"` + "\n"},
		{"matches the empty string", "x*", `webload: --volatile: pattern "x*" matches the empty string, so it would mark every place of every answer: give one that matches what varies, such as "order [0-9]+"` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, "--volatile", `order \d+`, "--volatile", tc.pattern, "http://127.0.0.1:1/")
			if code != 2 || stderr != tc.want || stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want 2 and %q", code, stderr, stdout, tc.want)
			}
		})
	}
}

// TestResultsCarryContent runs the CLI over the content site twice, the second time with a
// --volatile pattern, and reads each URL's content back from the saved result.
func TestResultsCarryContent(t *testing.T) {
	t.Parallel()
	site, err := contentsite.Start(contentsite.Baseline)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(list, []byte(strings.Join(site.URLs(), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		kettle  bool // the word "kettle" is in the fingerprint's text
		samples int64
	}{
		{"plain", nil, true, 2},
		{"volatile", []string{"--volatile", "(?i)kettle"}, false, 2},
	} {
		out := filepath.Join(dir, tc.name+".json")
		args := append([]string{"-q", "-c", "2", "-r", "10", "--no-parser", "-f", list, "-o", out}, tc.args...)
		if _, stderr, code := webload(t, nil, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, stderr)
		}
		rep, err := stats.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range rep.URLs {
			c := u.Content
			if c == nil || c.Samples != tc.samples || len(c.Types) != 1 || c.Types[0] != (content.TypeCount{Type: "text/html", Count: tc.samples}) {
				t.Fatalf("%s: %s content %+v, want %d samples of text/html", tc.name, u.URL, c, tc.samples)
			}
			if got := hasWord(c, "kettle"); got != tc.kettle {
				t.Errorf("%s: %s has kettle %v, want %v", tc.name, u.URL, got, tc.kettle)
			}
		}
	}
}

func hasWord(p *content.Profile, w string) bool {
	for _, s := range p.Segments() {
		if strings.Contains(strings.ToLower(s.Text), w) {
			return true
		}
	}
	return false
}
