package main

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
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
		{name: "errors abort", healthy: 40, args: []string{"-c", "4", "-t", "30S", "--abort-on", "p95>1m", "--abort-on", "error_rate>5", "--abort-window", "2s"},
			code: 1, stderr: "webload: aborted by --abort-on error_rate>5: error_rate was ", abortKey: true},
		{name: "healthy", healthy: 1 << 40, args: []string{"-c", "2", "-r", "30", "--abort-on", "error_rate>5", "--abort-on", "p95>1m"}, code: 0},
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

// A run that ends early still judges its --assert gates on what it measured and writes --junit,
// with one more failed case for the early end: a CI job then reads this run's verdicts, not a
// file an earlier run left in place. The exit code stays the early end's.
func TestGatesWhenARunEndsEarly(t *testing.T) {
	t.Parallel()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // nothing listens there: every request gets no response
	tests := []struct {
		name  string
		url   string
		args  []string
		code  int
		cases []string // the JUnit test cases, in order
		fails []string // those that failed
	}{
		{name: "abort-on", url: failingAfter(t, 40).URL + "/",
			args: []string{"-c", "4", "-t", "30S", "--abort-on", "error_rate>5", "--abort-window", "2s"}, code: 1,
			cases: []string{"p95<1m", "error_rate<1", "--abort-on error_rate>5", "run ended as planned"},
			fails: []string{"error_rate<1", "--abort-on error_rate>5", "run ended as planned"}},
		{name: "failures", url: down.URL + "/", args: []string{"-c", "2", "-t", "30S", "--failures", "5"}, code: 3,
			cases: []string{"p95<1m", "error_rate<1", "run ended as planned"}, fails: []string{"error_rate<1", "run ended as planned"}},
		{name: "as planned", url: failingAfter(t, 1<<40).URL + "/", args: []string{"-c", "2", "-r", "5"}, code: 0,
			cases: []string{"p95<1m", "error_rate<1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			junit := filepath.Join(t.TempDir(), "gates.xml")
			// What an earlier, passing run left: it must not survive this one.
			if err := os.WriteFile(junit, []byte(`<testsuites tests="1" failures="0"></testsuites>`), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{"-j", "--assert", "p95<1m", "--assert", "error_rate<1", "--junit", junit}, tt.args...), tt.url)
			stdout, stderr, code := webload(t, nil, args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			decode(t, []byte(stdout)) // stdout is still one JSON document
			data, cases, fails, messages := junitCases(t, junit)
			if m, ok := messages["run ended as planned"]; ok && !strings.Contains(m, "run ended early (aborted") {
				t.Errorf("the early end's failure says %q, want the abort named", m)
			}
			if !slices.Equal(cases, tt.cases) || !slices.Equal(fails, tt.fails) {
				t.Errorf("JUnit cases %q, failed %q; want %q and %q\n%s", cases, fails, tt.cases, tt.fails, data)
			}
			if tt.code != 0 && !strings.Contains(stderr, "Gate run ended early (aborted") {
				t.Errorf("stderr does not give the early end as a failed gate:\n%s", stderr)
			}
		})
	}
}

// --junit needs no --assert when there is an --abort-on gate: each --abort-on gate is a case,
// passed when it never held, failed with the window's value when it stopped the run.
func TestJUnitWithAbortOnAlone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		healthy int64
		args    []string
		code    int
		fails   []string
		message string // the start of the failed gate's message
	}{
		{name: "never held", healthy: 1 << 40, args: []string{"-c", "2", "-r", "5"}},
		{name: "stopped the run", healthy: 40, args: []string{"-c", "4", "-t", "30S", "--abort-window", "2s"}, code: 1,
			fails: []string{"--abort-on error_rate>5", "run ended as planned"}, message: "--abort-on error_rate>5: error_rate was "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			junit := filepath.Join(t.TempDir(), "gates.xml")
			args := append([]string{"-q", "--abort-on", "p95>1m", "--abort-on", "error_rate>5", "--junit", junit}, tt.args...)
			_, stderr, code := webload(t, nil, append(args, failingAfter(t, tt.healthy).URL+"/")...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			data, cases, fails, messages := junitCases(t, junit)
			if m, ok := messages["--abort-on error_rate>5"]; ok && !strings.HasPrefix(m, tt.message) {
				t.Errorf("the gate's failure says %q, want %q...", m, tt.message)
			}
			want := []string{"--abort-on p95>1m", "--abort-on error_rate>5"}
			if tt.code != 0 {
				want = append(want, "run ended as planned")
			}
			if !slices.Equal(cases, want) || !slices.Equal(fails, tt.fails) {
				t.Errorf("JUnit cases %q, failed %q; want %q and %q\n%s", cases, fails, want, tt.fails, data)
			}
		})
	}
}

// junitCases reads a JUnit file: its bytes, the names of its cases in order, those that failed,
// and each failure's message by case name.
func junitCases(t *testing.T, path string) (data []byte, cases, fails []string, messages map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("JUnit file: %v\n%s", err, data)
	}
	messages = map[string]string{}
	for _, c := range doc.Cases {
		cases = append(cases, c.Name)
		if c.Failure != nil {
			fails = append(fails, c.Name)
			messages[c.Name] = c.Failure.Message
		}
	}
	return data, cases, fails, messages
}
