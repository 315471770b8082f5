package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// With -j a broken gate's verdict goes to stderr: stdout stays the one JSON document that
// `webload -j ... | jq` reads, whatever the gates say.
func TestJSONOutputStaysJSONWhenAGateBreaks(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	t.Cleanup(srv.Close)
	stdout, stderr, code := webload(t, nil, "-j", "-c", "1", "-r", "2", "--assert", "failed>=1", srv.URL+"/")
	var rep map[string]any
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Errorf("stdout is not one JSON document (%v):\n%s", err, stdout)
	}
	if code != 1 || !strings.Contains(stderr, "Gate failed") {
		t.Errorf("exit %d, stderr %q; want 1 and the broken gate", code, stderr)
	}
}

// compare --format json carries the verdicts the text prints after its table, each with its
// gate, figure, result and value: a script reads from the JSON what a person reads from the
// text.
func TestCompareJSONCarriesTheGates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := savedSeries(t, dir, "old", 1, 20*time.Millisecond)
	slower := savedSeries(t, dir, "new", 3, 40*time.Millisecond)
	args := []string{"compare", "--max-regression", "p95=15%,failed=5%,la=5%", "--max-content-changes", "0", old, slower}
	text, _, code := webload(t, nil, args...)
	if code != 1 {
		t.Fatalf("text: exit %d, want 1 (p95 twice as slow)", code)
	}
	stdout, stderr, code := webload(t, nil, append([]string{"compare", "--format", "json"}, args[1:]...)...)
	if code != 1 {
		t.Fatalf("json: exit %d, want 1", code)
	}
	var cmp struct {
		Gates []struct {
			Gate, Figure, Result, Text string
			Measured                   *float64
		} `json:"gates"`
	}
	if err := json.Unmarshal([]byte(stdout), &cmp); err != nil {
		t.Fatalf("stdout is not one JSON document (%v):\n%s", err, stdout)
	}
	// The verdict lines: the text's last paragraph, and stderr under --format json.
	paragraphs := strings.Split(strings.TrimSpace(text), "\n\n")
	lines := strings.Split(paragraphs[len(paragraphs)-1], "\n")
	if got := strings.Split(strings.TrimSpace(strings.TrimSuffix(stderr, "webload: 1 of 4 gates failed\n")), "\n"); !slices.Equal(got, lines) {
		t.Errorf("stderr verdicts %q, want the text's %q", got, lines)
	}
	want := []struct{ figure, result string }{{"p95", "failed"}, {"failed", "ok"}, {"la", "ok"}, {"content", "ok"}}
	if len(cmp.Gates) != len(want) || len(lines) != len(want) {
		t.Fatalf("%d gates in the JSON, %d lines in the text; want %d:\n%s\n%s", len(cmp.Gates), len(lines), len(want), stdout, text)
	}
	for i, g := range cmp.Gates {
		if g.Text != lines[i] || g.Figure != want[i].figure || g.Result != want[i].result || g.Gate == "" {
			t.Errorf("gate %d: %+v, want %s %s and the text's line %q", i, g, want[i].figure, want[i].result, lines[i])
		}
		if (g.Measured == nil) != (g.Figure == "la") {
			t.Errorf("gate %d: measured %v; want a value unless the figure was not measured", i, g.Measured)
		}
	}
}
