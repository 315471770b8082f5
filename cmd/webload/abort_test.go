package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// failingAfter is a loopback site that answers its first n requests with 200, then with 500.
func failingAfter(t *testing.T, n int64) *httptest.Server {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) > n {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.Write([]byte("ok\n"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// --abort-on stops a run whose server breaks the gate (exit 1, one line naming the gate and the
// window's value, the report of what was measured); a healthy run ends as planned (exit 0); a
// gate that cannot be judged during the run, or a window without gates, exits 2 naming the flag.
func TestAbortOnExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		healthy  int64
		args     []string
		code     int
		stderr   string // a line stderr must hold
		abortKey bool   // the JSON's run.abort
	}{
		{name: "errors abort", healthy: 40, args: []string{"-c", "4", "-t", "30S", "--abort-on", "p95>1s", "--abort-on", "error_rate>5", "--abort-window", "2s"},
			code: 1, stderr: "webload: aborted by --abort-on error_rate>5: error_rate was ", abortKey: true},
		{name: "healthy", healthy: 1 << 40, args: []string{"-c", "2", "-r", "30", "--abort-on", "error_rate>5", "--abort-on", "p95>1s"}, code: 0},
		{name: "bad gate", args: []string{"-r", "1", "--abort-on", "p95<<1s"}, code: 2, stderr: `--abort-on: bad gate "p95<<1s": at column 5`},
		{name: "figure not live", args: []string{"-r", "1", "--abort-on", "la>4"}, code: 2, stderr: "--abort-on: bad gate \"la>4\": at column 1: la is not measured during the run"},
		{name: "url gate", args: []string{"-r", "1", "--abort-on", "url:/a p95>1s"}, code: 2, stderr: "not on url:/a"},
		{name: "window without gates", args: []string{"-r", "1", "--abort-window", "5s"}, code: 2, stderr: "--abort-window: there are no gates to judge"},
		{name: "bad window", args: []string{"-r", "1", "--abort-on", "p95>1s", "--abort-window", "soon"}, code: 2, stderr: `--abort-window: want a duration of at least 100ms such as 10s (got "soon")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := failingAfter(t, tt.healthy)
			stdout, stderr, code := webload(t, nil, append(append([]string{"-j"}, tt.args...), srv.URL+"/")...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, tt.code, tt.stderr)
			}
			if tt.code == 2 {
				return
			}
			if tt.stderr != "" && strings.Count(stderr, "aborted by") != 1 {
				t.Errorf("stderr names the abort %d times; want one line:\n%s", strings.Count(stderr, "aborted by"), stderr)
			}
			run := decode(t, []byte(stdout))["run"].(map[string]any)
			abort, has := run["abort"].(map[string]any)
			if has != tt.abortKey {
				t.Fatalf("run.abort = %v; want it present: %v", run["abort"], tt.abortKey)
			}
			if !has {
				return
			}
			if run["stop_reason"] != "aborted" || abort["gate"] != "error_rate>5" || abort["value"].(float64) <= 5 || abort["window"] != 2.0 {
				t.Errorf("run = %v; want stopped by error_rate>5 over 2 s with a value above 5", run)
			}
		})
	}
}
