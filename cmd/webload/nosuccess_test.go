package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run in which no request succeeded (nothing listens on the port, the server answers only
// errors) exits 1 with one line on stderr saying so, whether the report is quiet, text or JSON
// and whatever gates passed; one success among failures is an ordinary run.
func TestRunWithoutASuccessExits1(t *testing.T) {
	t.Parallel()
	failing := newCounter(t, 0, http.StatusServiceUnavailable)
	notFound := newCounter(t, 0, http.StatusNotFound)
	fine := newCounter(t, 0, http.StatusOK)
	const refused = "http://127.0.0.1:1/" // nothing listens on port 1
	mixed := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(mixed, []byte(refused+"\n"+failing.URL+"/\n"+fine.URL+"/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // the last line of stderr, "" for an empty stderr
	}{
		{"refused, quiet", []string{"-q", "-r", "1", refused}, exitGateFailed, "webload: no request succeeded (1 request: 1 refused)"},
		{"refused, JSON", []string{"-j", "-r", "1", refused}, exitGateFailed, "webload: no request succeeded (1 request: 1 refused)"},
		{"refused, text", []string{"-r", "1", refused}, exitGateFailed, "webload: no request succeeded (1 request: 1 refused)"},
		{"all 503", []string{"-q", "-r", "3", failing.URL + "/"}, exitGateFailed, "webload: no request succeeded (3 requests: 3 answered 503)"},
		{"all 404", []string{"-q", "-r", "2", notFound.URL + "/"}, exitGateFailed, "webload: no request succeeded (2 requests: 2 answered 404)"},
		{"a gate that passes", []string{"-q", "-r", "1", "--assert", "failed>=0", refused}, exitGateFailed, "webload: no request succeeded (1 request: 1 refused)"},
		{"one success among failures", []string{"-q", "-r", "once", "-f", mixed}, exitOK, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, append([]string{"-c", "1"}, tc.args...)...)
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if code != tc.wantCode || lines[len(lines)-1] != tc.wantErr || strings.Count(stderr, "no request succeeded") > 1 {
				t.Errorf("exit %d, stderr %q; want %d and a last line %q", code, stderr, tc.wantCode, tc.wantErr)
			}
			if tc.args[0] == "-q" && tc.wantErr != "" && len(lines) != 1 {
				t.Errorf("quiet run's stderr %q, want the one line", stderr)
			}
		})
	}
}
