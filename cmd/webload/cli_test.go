package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// webload runs webload in-process with the given arguments and returns what it printed and its
// exit code. Every run is bounded so a broken engine cannot hang the suite.
func webload(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out, errw bytes.Buffer
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	err := runApp(ctx, append([]string{"webload"}, args...), &out, &errw, lookup)
	code = exitCode(err, &errw)
	return out.String(), errw.String(), code
}

// counter is a loopback site that counts requests per path.
type counter struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newCounter(t *testing.T, delay time.Duration, status int) *counter {
	t.Helper()
	c := &counter{hits: map[string]int{}}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.hits[r.URL.Path]++
		c.mu.Unlock()
		time.Sleep(delay)
		w.WriteHeader(status)
		fmt.Fprintf(w, "page %s\n", r.URL.Path)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *counter) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.hits {
		out[k] = v
	}
	return out
}

// urlFile writes a siege URL file of n pages on base, using a variable like real files do.
func urlFile(t *testing.T, base string, n int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# test pages\nSITE=%s\n\n", base)
	for i := range n {
		fmt.Fprintf(&b, "$(SITE)/page/%d\n", i)
	}
	path := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return m
}

func TestSiegeCommandLine(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	file := urlFile(t, site.URL, 50)
	stdout, stderr, code := webload(t, nil, "-b", "-c", "20", "-r", "50", "-f", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	hits := site.snapshot()
	total := 0
	for i := range 50 {
		n := hits[fmt.Sprintf("/page/%d", i)]
		total += n
		if n != 20 {
			t.Errorf("/page/%d hit %d times, want 20", i, n)
		}
	}
	if total != 1000 {
		t.Errorf("%d requests, want 1000", total)
	}
	for _, want := range []string{"Transactions:\t\t        1000 hits", "Availability:\t\t      100.00 %",
		"Successful transactions:        1000", "Failed transactions:\t           0", "Response time p99:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
}

func TestOutputsJSONFileAndLog(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	out, log := filepath.Join(dir, "r.json"), filepath.Join(dir, "siege.log")
	stdout, stderr, code := webload(t, nil, "-j", "-c", "3", "-r", "4", "--label", "MariaDB 10.0 XtraDB",
		"-o", out, "-l", log, "-m", "before migration", site.URL+"/x")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("-j should keep stderr quiet, got %q", stderr)
	}
	printed := decode(t, []byte(stdout))
	for _, key := range []string{"transactions", "availability", "elapsed_time", "data_transferred", "response_time",
		"transaction_rate", "throughput", "concurrency", "successful_transactions", "failed_transactions",
		"longest_transaction", "shortest_transaction", "percentiles", "status_codes", "errors", "urls", "label"} {
		if _, ok := printed[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
	if printed["transactions"].(float64) != 12 || printed["label"] != "MariaDB 10.0 XtraDB" {
		t.Errorf("transactions %v label %v", printed["transactions"], printed["label"])
	}
	saved, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(saved) != stdout {
		t.Error("-o file differs from the -j output")
	}
	logged, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(logged)), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "Date & Time") || lines[1] != "**** before migration ****" ||
		!strings.Contains(lines[2], ",     12,") {
		t.Errorf("log file:\n%s", logged)
	}
}

func TestVerboseAndQuiet(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	stdout, _, code := webload(t, nil, "-v", "-c", "2", "-r", "3", site.URL+"/v")
	if code != 0 || strings.Count(stdout, " bytes ==> GET  "+site.URL+"/v\n") != 6 {
		t.Errorf("exit %d, verbose output:\n%s", code, stdout)
	}
	stdout, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "3", site.URL+"/q")
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("-q printed stdout %q stderr %q (exit %d)", stdout, stderr, code)
	}
	if got := site.snapshot()["/q"]; got != 6 {
		t.Errorf("-q run made %d requests, want 6", got)
	}
}

// siege users glue values to short flags and put flags after the URL.
func TestSiegeArgumentStyles(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	stdout, stderr, code := webload(t, nil, site.URL+"/glued", "-c3", "-r2", "-bq", "-j")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := decode(t, []byte(stdout))["transactions"]; got != 6.0 {
		t.Errorf("transactions = %v, want 6", got)
	}
	_, stderr, code = webload(t, nil, "-c", "1", "-r", "1", site.URL+"/form", "POST", "a=1")
	if code != 0 || site.snapshot()["/form"] != 1 {
		t.Errorf("unquoted POST line: exit %d, %s", code, stderr)
	}
}

// A 50 ms server: the mean response time reflects the server, not the tester. Both bounds are
// facts, whatever the machine's load: no response comes before the server's 50 ms, and the 30
// response times of 5 users fit in 5 times the run's elapsed time.
func TestResponseTimeOfASlowServer(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 50*time.Millisecond, 200)
	stdout, stderr, code := webload(t, nil, "-j", "-c", "5", "-r", "6", site.URL+"/slow")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep := decode(t, []byte(stdout))
	rt, elapsed := rep["response_time"].(float64), rep["elapsed_time"].(float64)
	if n := rep["transactions"].(float64); n != 30 {
		t.Fatalf("%v transactions, want 30", n)
	}
	if rt < 0.050 {
		t.Errorf("mean response time %.4f s, shorter than the server's 50 ms", rt)
	}
	if 30*rt > 5*elapsed {
		t.Errorf("mean response time %.4f s: 30 of them exceed 5 users' %.3f s", rt, elapsed)
	}
}

// -t stops a run by time. Its elapsed time cannot be shorter than -t; the run's end is bounded
// by the requests in flight, each at most 10 ms here, which only a hang could push past the
// generous 30 s bound.
func TestTimedRunStops(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 10*time.Millisecond, 200)
	start := time.Now()
	stdout, stderr, code := webload(t, nil, "-j", "-c", "4", "-t", "1S", "--timeout", "2", site.URL+"/t")
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if took > 30*time.Second {
		t.Errorf("-t 1S --timeout 2 took %v: it did not stop", took)
	}
	rep := decode(t, []byte(stdout))
	if et := rep["elapsed_time"].(float64); et < 1 {
		t.Errorf("elapsed %.2f s, shorter than -t 1S", et)
	}
	if rep["run"].(map[string]any)["stop_reason"] != "time" {
		t.Errorf("stop reason %v", rep["run"])
	}
}

func TestFailuresAreCountedByKind(t *testing.T) {
	t.Parallel()
	errSite := newCounter(t, 0, 503)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	t.Cleanup(hang.Close)
	dir := t.TempDir()
	file := filepath.Join(dir, "urls.txt")
	content := errSite.URL + "/busy\n" + hang.URL + "/hang\nhttp://127.0.0.1:1/refused\n"
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	// The timeout applies to every URL: it is long enough that the 503 and the refused dial
	// never reach it on a busy machine, and only /hang waits it out.
	stdout, stderr, code := webload(t, nil, "-j", "-c", "3", "-r", "once", "--timeout", "2s", "-f", file)
	// Not one request succeeded: the run says so in one line, and exits 1.
	const want = "webload: no request succeeded (3 requests: 1 refused, 1 timeout, 1 answered 503)\n"
	if code != exitGateFailed || stderr != want {
		t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, exitGateFailed, want)
	}
	rep := decode(t, []byte(stdout))
	if rep["failed_transactions"] != 3.0 || rep["transactions"] != 0.0 || rep["requests"] != 3.0 {
		t.Errorf("failed %v transactions %v requests %v", rep["failed_transactions"], rep["transactions"], rep["requests"])
	}
	errs := rep["errors"].(map[string]any)
	if errs["timeout"] != 1.0 || errs["refused"] != 1.0 || rep["status_codes"].(map[string]any)["503"] != 1.0 {
		t.Errorf("errors %v status %v", errs, rep["status_codes"])
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("# ok\nhttp://127.0.0.1:8080/\nftp://127.0.0.1/file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	misspelt := filepath.Join(dir, "misspelt.txt")
	if err := os.WriteFile(misspelt, []byte("#@check status==200\nhttp://127.0.0.1:8080/\n#@chek status==200\nhttp://127.0.0.1:8080/b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // the one line printed
	}{
		{"misspelt directive", []string{"-f", misspelt}, misspelt + `:3: unknown directive "#@chek": want #@check, #@extract or #@weight (did you mean #@check?)`},
		{"zero users", []string{"-c", "0", "http://127.0.0.1:1/"}, "webload: -c: the number of users must be at least 1 (got 0)"},
		{"bad time", []string{"-t", "5X", "http://127.0.0.1:1/"}, `webload: -t: want NUM[S|M|H] such as 30S, 5M or 1H (got "5X")`},
		{"bad reps", []string{"-r", "many", "http://127.0.0.1:1/"}, `webload: -r: want a number of requests per user or "once" (got "many")`},
		{"bad timeout", []string{"--timeout", "soon", "http://127.0.0.1:1/"}, `webload: --timeout: want a positive number of seconds or a duration such as 500ms (got "soon")`},
		{"unknown flag", []string{"--frobnicate", "http://127.0.0.1:1/"}, "webload: flag provided but not defined: -frobnicate"},
		{"bad line", []string{"-f", bad}, bad + `:3: unsupported scheme "ftp"`},
		{"missing file", []string{"-f", filepath.Join(dir, "nope.txt")}, "no such file or directory"},
		{"no URL", nil, "webload: no URL: give one (webload http://127.0.0.1:8080/) or a URL file (webload -f urls.txt)"},
		{"header without colon", []string{"-H", "oops", "http://127.0.0.1:1/"}, `webload: -H: want "Name: value" (got "oops")`},
		{"mark without log", []string{"-m", "x", "http://127.0.0.1:1/"}, "webload: -m: a mark goes into the log file; give one with -l FILE"},
		{"bad rate", []string{"--rate", "fast", "http://127.0.0.1:1/"}, `webload: --rate: want requests per second such as 500, or per a period such as 30/1m (got "fast")`},
		{"rate with users", []string{"--rate", "10", "-c", "5", "http://127.0.0.1:1/"}, "webload: -c sets the users of the closed model"},
		{"rate with delay", []string{"--rate", "10", "-d", "1", "http://127.0.0.1:1/"}, "webload: -d pauses closed-model users"},
		{"two URLs", []string{"http://127.0.0.1:1/a", "http://127.0.0.1:1/b"}, "webload: expected one URL, got 2 arguments"},
		{"negative cpus", []string{"--cpus", "-1", "http://127.0.0.1:1/"}, "webload: --cpus: must be at least 1, or 0 for all (got -1)"},
		{"bare with parser", []string{"--bare", "--parser", "http://127.0.0.1:1/"}, "webload: --bare sends the URLs alone: it takes no --parser"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr = %q, want one line containing %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
}

func TestURLFileSeesEnvironment(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	file := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(file, []byte("$(TARGET)/env\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := webload(t, map[string]string{"TARGET": site.URL}, "-q", "-c", "1", "-r", "2", "-f", file)
	if code != 0 || site.snapshot()["/env"] != 2 {
		t.Errorf("exit %d (%s), hits %v", code, stderr, site.snapshot())
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	stdout, _, code := webload(t, nil, "-V")
	if code != 0 || !strings.HasPrefix(stdout, "webload "+version+" (") || !strings.HasSuffix(stdout, runtime.GOOS+"/"+runtime.GOARCH+")\n") {
		t.Errorf("-V printed %q, exit %d", stdout, code)
	}
}

// -V names the commit a binary was built from, and says when the tree had changes.
func TestVersionLine(t *testing.T) {
	t.Parallel()
	platform := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"no build information", nil, "webload " + version + " (" + platform + ")\n"},
		{"a clean commit", []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-12-06T07:00:00Z"},
			{Key: "vcs.modified", Value: "false"}},
			"webload " + version + " (commit 0123456789ab, committed 2026-12-06T07:00:00Z, " + platform + ")\n"},
		{"local changes", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}},
			"webload " + version + " (commit abc with local changes, " + platform + ")\n"},
	} {
		if got := versionLine(&debug.BuildInfo{Settings: tc.settings}, tc.settings != nil); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDemo(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := webload(t, nil, "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// 1000 pages, and each of the 20 users fetches the shop's 27 stylesheet, script, icon and
	// images once: its cache holds them after.
	for _, want := range []string{"Transactions:\t\t        1540 hits", "Failed transactions:\t           0",
		"Pages loaded:\t\t        1000 (0 failed)", "Page resources:\t\t         540 fetched", "Per URL, slowest mean first"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo report lacks %q:\n%s", want, stdout)
		}
	}
}

// closedAddr is a loopback address where nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	s := httptest.NewServer(http.NotFoundHandler())
	addr := s.Listener.Addr().String()
	s.Close()
	return addr
}

func TestDemoServe(t *testing.T) {
	t.Parallel()
	addr := closedAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- runApp(ctx, []string{"webload", "demo", "--serve", "--addr", addr, "--slowdown", "0.1"}, io.Discard, &stderr, nil)
	}()
	var resp *http.Response
	var err error
	for range 400 { // 20 s at most
		if resp, err = http.Get("http://" + addr + "/product/107"); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("the served shop never answered: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("demo --serve ended with %v, want a clean stop", err)
	}
	if _, _, code := webload(t, nil, "demo", "--serve", "--addr", "0.0.0.0:0"); code != 2 {
		t.Errorf("serving off loopback: exit %d, want 2", code)
	}
}

// Credentials given to webload must never reach an output: not the report, the JSON, the log,
// verbose lines, gate verdicts or a comparison.
func TestSecretsAreRedacted(t *testing.T) {
	t.Parallel()
	var sawAuth, sawCookie bool
	var mu sync.Mutex
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sawAuth = sawAuth || r.Header.Get("Authorization") == "Bearer tok3n-tok3n"
		sawCookie = sawCookie || r.Header.Get("Cookie") == "sid=c00kie-c00kie"
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "set-c00kie-value"})
		if r.URL.Path == "/fail" {
			w.WriteHeader(503)
		}
	}))
	t.Cleanup(site.Close)
	dir := t.TempDir()
	secretURL := strings.Replace(site.URL, "http://", "http://bob:s3cret-pass@", 1)
	file := filepath.Join(dir, "urls.txt")
	content := secretURL + "/page\n" + secretURL + "/form POST a=1\n" + secretURL + "/fail\n"
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	out, log, junit := filepath.Join(dir, "r.json"), filepath.Join(dir, "runs.log"), filepath.Join(dir, "gates.xml")
	headers := []string{"-H", "Authorization: Bearer tok3n-tok3n", "-H", "Cookie: sid=c00kie-c00kie"}
	args := append(headers, "-v", "--per-url", "-c", "2", "-r", "3", "-f", file, "-o", out, "-l", log,
		"--assert", "url:/page p99<1m", "--junit", junit)
	stdout, stderr, code := webload(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cmpOut, cmpErr, _ := webload(t, nil, "compare", "--per-url", out, out)
	jsonOut, _, _ := webload(t, nil, append(headers, "-j", "-c", "1", "-r", "3", "-f", file)...)
	everything := stdout + stderr + cmpOut + cmpErr + jsonOut
	for _, f := range []string{out, log, junit} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		everything += string(data)
	}
	for _, secret := range []string{"s3cret-pass", "tok3n-tok3n", "c00kie-c00kie", "set-c00kie-value"} {
		if strings.Contains(everything, secret) {
			t.Errorf("%q appears in an output", secret)
		}
	}
	if !strings.Contains(everything, "bob:xxxxx@") {
		t.Error("the redacted URL should still name the user")
	}
	mu.Lock()
	defer mu.Unlock()
	if !sawAuth || !sawCookie {
		t.Errorf("the site should still receive the credentials: authorization %v, cookie %v", sawAuth, sawCookie)
	}
}
