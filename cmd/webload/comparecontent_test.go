package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// stackSite is a loopback shop whose pages carry a form token, a timestamp and their own
// serving time, all different in every response, as real pages do. Once broken, /gone answers
// 404 and /short a one-line page instead of its catalogue.
type stackSite struct {
	*httptest.Server
	broken atomic.Bool
}

func newStackSite(t *testing.T) *stackSite {
	t.Helper()
	s := &stackSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		token := make([]byte, 16)
		_, _ = rand.Read(token)
		if s.broken.Load() {
			switch r.URL.Path {
			case "/gone":
				http.NotFound(w, r)
				return
			case "/short":
				fmt.Fprintf(w, "<html><body>Out of stock</body></html>\n")
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><form><input name=token value=%s></form>\n<p>Generated %s</p>\n",
			hex.EncodeToString(token), time.Now().Format(time.RFC3339Nano))
		for i := range 40 {
			fmt.Fprintf(w, "<li>%s item %d: %d.%02d EUR</li>\n", r.URL.Path, i, 10+i, i*7%100)
		}
		fmt.Fprintf(w, "<!-- served in %v --></body></html>\n", time.Since(start))
	}))
	t.Cleanup(s.Close)
	return s
}

// contentRun loads the four pages of site and saves the result as name.json in dir.
func contentRun(t *testing.T, site *stackSite, dir, name string) string {
	t.Helper()
	list := filepath.Join(dir, "urls.txt")
	var b strings.Builder
	for _, p := range []string{"/", "/gone", "/short", "/about"} {
		b.WriteString(site.URL + p + "\n")
	}
	if err := os.WriteFile(list, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name+".json")
	_, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "20", "--label", name, "-o", out, "-f", list)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", name, code, stderr)
	}
	return out
}

// Two runs of one stack answer the same; a stack that serves a 404 and a short page where the
// other served pages is named URL by URL, in text, JSON and JUnit, and fails
// --max-content-changes when more URLs changed than allowed.
func TestCompareContentSection(t *testing.T) {
	t.Parallel()
	site := newStackSite(t)
	dir := t.TempDir()
	old := contentRun(t, site, dir, "old")
	again := contentRun(t, site, dir, "again")
	site.broken.Store(true)
	broken := contentRun(t, site, dir, "new")

	stdout, stderr, code := webload(t, nil, "compare", "--max-content-changes", "0", old, again)
	if code != 0 || !strings.Contains(stdout, "Content: the 4 URLs answer as the baseline did (status mix, content and size)") ||
		!strings.Contains(stdout, "Content: no URL answers differently (allowed 0): ok") {
		t.Errorf("the same stack twice: exit %d\n%s%s", code, stdout, stderr)
	}

	tests := []struct {
		name     string
		max      string
		code     int
		verdicts string
	}{
		{"none allowed", "0", 1, "FAILED (2 URLs changed, allowed 0)"},
		{"one allowed", "1", 1, "FAILED (2 URLs changed, allowed 1)"},
		{"two allowed", "2", 0, "ok (2 URLs changed, allowed 2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			junit := filepath.Join(t.TempDir(), "verdict.xml")
			stdout, stderr, code := webload(t, nil, "compare", "--max-content-changes", tc.max, "--junit", junit, old, broken)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, w := range []string{
				"\nContent: 2 URLs of 4 answer differently from the baseline (",
				"  new  status   GET /gone   200 ×10 → 404 ×10 (also size)\n",
				"  new  content  GET /short  \"Generated #date /short item 0: 10.00 EUR",
				" → \"Out of stock\" (also size)\n",
				"Content new GET /gone: status 200 ×10 → 404 ×10 (also size): " + tc.verdicts,
			} {
				if !strings.Contains(stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, stdout)
				}
			}
			if strings.Contains(stdout, "GET /about") || strings.Contains(stdout, "GET / ") {
				t.Errorf("an unchanged page is flagged:\n%s", stdout)
			}
			var doc struct {
				Suites []struct {
					Tests    int `xml:"tests,attr"`
					Failures int `xml:"failures,attr"`
					Cases    []struct {
						Name string `xml:"name,attr"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			data, err := os.ReadFile(junit)
			if err != nil {
				t.Fatal(err)
			}
			wantFailures := map[int]int{0: 0, 1: 2}[tc.code]
			if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Suites) != 1 || doc.Suites[0].Tests != 2 ||
				doc.Suites[0].Failures != wantFailures || doc.Suites[0].Cases[0].Name != "content: new GET /gone" {
				t.Errorf("JUnit (%v):\n%s", err, data)
			}
		})
	}

	stdout, _, code = webload(t, nil, "compare", "--format", "json", old, broken)
	var cmp struct {
		Content []struct {
			URL, Change, Before, After string
			Also                       []string
		} `json:"content_changes"`
	}
	if err := json.Unmarshal([]byte(stdout), &cmp); err != nil || code != 0 {
		t.Fatalf("JSON (exit %d, %v):\n%s", code, err, stdout)
	}
	if len(cmp.Content) != 2 || cmp.Content[0].URL != site.URL+"/gone" || cmp.Content[0].Change != "status" ||
		cmp.Content[0].Before != "200 ×10" || cmp.Content[0].After != "404 ×10" ||
		cmp.Content[1].URL != site.URL+"/short" || cmp.Content[1].Change != "content" || cmp.Content[1].After != "Out of stock" {
		t.Errorf("content_changes: %+v", cmp.Content)
	}

	// A nightly history flags the night whose pages changed, against the night before.
	history := t.TempDir()
	for i, p := range []string{old, again, broken} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(history, fmt.Sprintf("night-%d.json", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code = webload(t, nil, "compare", "--history", history, "--max-content-changes", "0", "--format", "json")
	var trend struct {
		Content []struct{ URL, Change string } `json:"content_changes"`
	}
	// stdout is one JSON document; the verdicts go to stderr.
	if err := json.Unmarshal([]byte(stdout), &trend); err != nil || code != 1 ||
		len(trend.Content) != 2 || trend.Content[0].Change != "status" || !strings.Contains(stderr, " GET /gone: status 200 ×10 → 404 ×10 (also size): FAILED") {
		t.Errorf("history: exit %d, %v\n%s%s", code, err, stdout, stderr)
	}

	_, stderr, code = webload(t, nil, "compare", "--max-content-changes", "-1", old, broken)
	if code != 2 || !strings.Contains(stderr, "--max-content-changes: want 0 or more") {
		t.Errorf("a negative limit: exit %d, %s", code, stderr)
	}

	// --content-ignore leaves the pages a user knows to vary out of the section and its gate.
	stdout, stderr, code = webload(t, nil, "compare", "--max-content-changes", "0", "--content-ignore", "^/(gone|short)$", old, broken)
	if code != 0 || !strings.Contains(stdout, "Content: 2 URLs left out by --content-ignore") {
		t.Errorf("--content-ignore: exit %d\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = webload(t, nil, "compare", "--content-ignore", "(", old, broken)
	if code != 2 || !strings.Contains(stderr, `--content-ignore "(": error parsing regexp`) {
		t.Errorf("a bad --content-ignore: exit %d, %s", code, stderr)
	}
}
