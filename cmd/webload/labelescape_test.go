package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileLabel would colour a terminal red, forge a CI annotation line and overwrite the
// line it is printed on, if it were printed as it is.
const hostileLabel = "red\x1b[31m\n::error::x\rend\u009b\x7f"

// noControls fails when out holds a control character other than the newlines and tabs of
// its own layout, or a line that the label began.
func noControls(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			t.Errorf("%s holds control %U:\n%q", what, r, out)
			return
		}
	}
	if strings.Contains(out, "\n::error::") {
		t.Errorf("%s starts a line with the label's \"::error::\":\n%q", what, out)
	}
	if !strings.Contains(out, `red\x1b[31m\n::error::x\rend\u009b\x7f`) {
		t.Errorf("%s does not show the label escaped:\n%q", what, out)
	}
}

// TestLabelsAreEscapedInEveryOutput: a label with control characters, given with --label or
// read from a result saved elsewhere, is shown escaped in the terminal, the text and Markdown
// comparisons, JUnit XML and the HTML report, so that it cannot colour the terminal, rewrite
// a line or forge a CI log line. The saved JSON keeps it as it was.
func TestLabelsAreEscapedInEveryOutput(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	base, cand := filepath.Join(dir, "base.json"), filepath.Join(dir, "cand.json")
	junit := filepath.Join(dir, "run.xml")
	for _, out := range []string{base, cand} {
		_, stderr, code := webload(t, nil, "-c", "1", "-r", "20", "--label", hostileLabel, "-o", out,
			"--assert", "availability>=100", "--assert", "p95<1ms", "--junit", junit, srv.URL+"/")
		if code != 0 && code != 1 {
			t.Fatalf("run: exit %d\n%s", code, stderr)
		}
		noControls(t, "the run's JUnit XML", readString(t, junit))
	}
	saved := readString(t, base)
	var rep struct {
		Label string `json:"label"`
	}
	if err := json.Unmarshal([]byte(saved), &rep); err != nil || rep.Label != hostileLabel {
		t.Errorf("saved label %q (%v), want it as given", rep.Label, err)
	}

	cjunit, html := filepath.Join(dir, "compare.xml"), filepath.Join(dir, "report.html")
	for _, format := range []string{"text", "md"} {
		stdout, stderr, code := webload(t, nil, "compare", "--format", format, "--per-url",
			"--max-regression", "p95=0%,trate=0%", "--junit", cjunit, base, cand)
		if code > 4 {
			t.Fatalf("compare: exit %d\n%s", code, stderr)
		}
		noControls(t, "compare --format "+format, stdout+stderr)
		noControls(t, "compare's JUnit XML", readString(t, cjunit))
	}
	if _, stderr, code := webload(t, nil, "report", "--html", html, base, cand); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	page := readString(t, html)
	for _, r := range page {
		if r == 0x1b || r == '\r' || r == 0x9b || r == 0x7f {
			t.Fatalf("the HTML report holds control %U", r)
		}
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
