package main

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// A siegerc given with -R (or $SIEGERC) sets what the command line leaves unset, warns once
// about the keys webload ignores, and -C shows the result with secrets hidden.
func TestSiegercRun(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	agents := map[string]int{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents[r.Header.Get("X-Stage")]++
		mu.Unlock()
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(site.Close)
	rc := filepath.Join(t.TempDir(), "siegerc")
	text := "concurrent = 3\nreps = 4\nheader = X-Stage: staging\nheader = Authorization: Bearer t0ken\nparser = false\nspinner = true\n"
	if err := os.WriteFile(rc, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		env       map[string]string
		args      []string
		wantTrans int
	}{
		{"-R", nil, []string{"-R", rc, "-j", site.URL + "/"}, 12},
		{"SIEGERC", map[string]string{"SIEGERC": rc}, []string{"-j", site.URL + "/"}, 12},
		{"command line wins", nil, []string{"-R", rc, "-c", "2", "-j", site.URL + "/"}, 8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := webload(t, tc.env, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var rep struct{ Transactions int }
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Transactions != tc.wantTrans {
				t.Fatalf("transactions %d (%v), want %d", rep.Transactions, err, tc.wantTrans)
			}
			if strings.Count(stderr, "ignoring keys") != 1 || !strings.Contains(stderr, "spinner") {
				t.Errorf("stderr %q: want one warning naming spinner", stderr)
			}
		})
	}
	mu.Lock()
	if agents["staging"] != 32 {
		t.Errorf("%d requests carried the siegerc's header, want 32", agents["staging"])
	}
	mu.Unlock()

	stdout, _, code := webload(t, nil, "-R", rc, "-C")
	if code != 0 || !strings.Contains(stdout, "(siegerc line 1)") || strings.Contains(stdout, "t0ken") {
		t.Errorf("-C printed (exit %d):\n%s", code, stdout)
	}
	if _, stderr, code := webload(t, nil, "-R", filepath.Join(t.TempDir(), "none"), site.URL); code != exitUsage || !strings.Contains(stderr, "none") {
		t.Errorf("a missing siegerc: exit %d, %q", code, stderr)
	}
}

// -g prints one request's heads with secrets hidden; -p adds the body.
func TestProbe(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s3ss10n"})
		fmt.Fprint(w, "the body")
	}))
	t.Cleanup(site.Close)
	for _, flag := range []string{"-g", "-p"} {
		stdout, stderr, code := webload(t, nil, flag, site.URL+"/x", "-u", "ann:pw", "-H", "Cookie: a=b")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", flag, code, stderr)
		}
		for _, want := range []string{"GET /x HTTP/1.1", "Authorization: ***", "Cookie: ***", "HTTP/1.1 200 OK", "Set-Cookie: ***"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s output lacks %q:\n%s", flag, want, stdout)
			}
		}
		for _, secret := range []string{"s3ss10n", "a=b", "YW5uOnB3"} {
			if strings.Contains(stdout, secret) {
				t.Errorf("%s output shows the secret %q", flag, secret)
			}
		}
		if got := strings.Contains(stdout, "the body"); got != (flag == "-p") {
			t.Errorf("%s: body printed %v", flag, got)
		}
	}
}

// -g and -p send one request that is no user's: a URL with a per-user variable is refused
// before anything is sent, instead of probing the reference as written.
func TestProbeRefusesPerUserVariables(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(site.Close)
	data := filepath.Join(t.TempDir(), "users.csv")
	if err := os.WriteFile(data, []byte("user,pass\nann,s3cret-pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"-g", "-p"} {
		_, stderr, code := webload(t, nil, flag, site.URL+"/u/$(user)", "--data", data)
		if code != 2 || !strings.Contains(stderr, "$(user) is a per-user variable") || strings.Contains(stderr, "s3cret") {
			t.Errorf("%s: exit %d: %s", flag, code, stderr)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests sent", hits.Load())
	}
}

// HTTPS is verified by default: an unknown certificate fails as "tls" until it is trusted with
// --cacert or verification is skipped with --insecure.
func TestTLSFlags(t *testing.T) {
	t.Parallel()
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	t.Cleanup(site.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: site.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		args      []string
		wantTrans int
		wantTLS   int
	}{
		{"verified by default", nil, 0, 2},
		{"--cacert", []string{"--cacert", ca}, 2, 0},
		{"--insecure", []string{"--insecure"}, 2, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-c", "1", "-r", "2", "-j", site.URL + "/"}, tc.args...)
			stdout, stderr, code := webload(t, nil, args...)
			var rep struct {
				Transactions int
				Errors       map[string]int
			}
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatalf("exit %d, %v: %s", code, err, stderr)
			}
			if rep.Transactions != tc.wantTrans || rep.Errors["tls"] != tc.wantTLS {
				t.Errorf("%d transactions, %d tls failures; want %d and %d", rep.Transactions, rep.Errors["tls"], tc.wantTrans, tc.wantTLS)
			}
		})
	}
}

// --http2 sends every request over HTTP/2; it cannot be combined with --connection close.
func TestHTTP2(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	protos := map[int]int{}
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		protos[r.ProtoMajor]++
		mu.Unlock()
		fmt.Fprint(w, "ok")
	}))
	site.EnableHTTP2 = true
	site.StartTLS()
	t.Cleanup(site.Close)
	stdout, stderr, code := webload(t, nil, "--http2", "--insecure", "-c", "2", "-r", "3", "-j", site.URL+"/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct{ Transactions int }
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Transactions != 6 {
		t.Fatalf("transactions %d (%v), want 6", rep.Transactions, err)
	}
	mu.Lock()
	if protos[2] != 6 || len(protos) != 1 {
		t.Errorf("requests by HTTP major version %v, want 6 over HTTP/2 only", protos)
	}
	mu.Unlock()
	_, stderr, code = webload(t, nil, "--http2", "--connection", "close", site.URL+"/")
	if code != exitUsage || !strings.Contains(stderr, "--http2 cannot be combined with --connection close") {
		t.Errorf("--http2 with --connection close: exit %d, %q", code, stderr)
	}
}

// The RST_STREAM frames an HTTP/2 server sends are counted in the result and told in the report;
// a run whose server sent none says nothing of them.
func TestHTTP2ResetsAreCounted(t *testing.T) {
	t.Parallel()
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/reset" {
			panic(http.ErrAbortHandler) // the server resets the stream (INTERNAL_ERROR)
		}
		fmt.Fprint(w, "ok")
	}))
	site.EnableHTTP2 = true
	site.Config.ErrorLog = log.New(io.Discard, "", 0)
	site.StartTLS()
	t.Cleanup(site.Close)
	tests := []struct {
		path       string
		resets     int64
		reportLine bool
	}{
		{"/reset", 3, true},
		{"/ok", 0, false},
	}
	for _, tt := range tests {
		stdout, stderr, code := webload(t, nil, "--http2", "--insecure", "-c", "1", "-r", "3", "-j", site.URL+tt.path)
		if code != exitOK && code != exitGateFailed { // a run where every request failed exits 1
			t.Fatalf("%s: exit %d: %s", tt.path, code, stderr)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		got, present := rep["http2_resets"]
		if tt.resets == 0 && present {
			t.Errorf("%s: http2_resets %v in a run whose server reset nothing", tt.path, got)
		}
		if tt.resets > 0 && got != float64(tt.resets) {
			t.Errorf("%s: http2_resets %v, want %d", tt.path, got, tt.resets)
		}
		stdout, _, _ = webload(t, nil, "--http2", "--insecure", "-c", "1", "-r", "3", site.URL+tt.path)
		if strings.Contains(stdout, "HTTP/2 frames:") != tt.reportLine {
			t.Errorf("%s: report line of HTTP/2 frames shown %v, want %v:\n%s", tt.path, !tt.reportLine, tt.reportLine, stdout)
		}
	}
}

// --header-file reads "Name: value" lines (comments and blank lines skipped); a bad line is an
// error naming the file and line; -H wins over the file.
func TestHeaderFile(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]string{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen["X-Stage"], seen["X-Team"] = r.Header.Get("X-Stage"), r.Header.Get("X-Team")
		mu.Unlock()
	}))
	t.Cleanup(site.Close)
	dir := t.TempDir()
	good := filepath.Join(dir, "headers")
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(good, []byte("# staging\n\nX-Stage: file\nX-Team:  shop \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("X-Ok: 1\nX Bad: 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := webload(t, nil, "-q", "-c", "1", "-r", "1", "--header-file", good, "-H", "X-Stage: flag", site.URL+"/"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mu.Lock()
	if seen["X-Stage"] != "flag" || seen["X-Team"] != "shop" {
		t.Errorf("server saw %v, want X-Stage from -H and X-Team from the file", seen)
	}
	mu.Unlock()
	if _, stderr, code := webload(t, nil, "--header-file", bad, site.URL+"/"); code != exitUsage || !strings.Contains(stderr, bad+":2:") {
		t.Errorf("bad header file: exit %d, %q", code, stderr)
	}
}

// A --resource-hosts entry that is no host pattern is refused, naming the flag, instead of
// matching nothing in silence; hosts, host:port and bracketed IPv6 addresses are taken.
func TestResourceHostsAreHostPatterns(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(site.Close)
	tests := []struct {
		name, hosts string
		want        string // in stderr with exit 2; "" for a run that goes ahead
	}{
		{"host", "cdn.example.com", ""},
		{"host and port", "cdn.example.com:443", ""},
		{"IPv6 with port", "[::1]:8080", ""},
		{"comma-separated", "a.example, b.example:8080", ""},
		{"a URL", "https://cdn.example.com/", `--resource-hosts: bad host "https://cdn.example.com/": want a host name such as example.com, or host:port, not a URL`},
		{"a port out of range", "cdn.example.com:99999", "want a port from 1 to 65535"},
		{"one bad of two", "a.example,b.example/x", `bad host "b.example/x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, "-q", "-c", "1", "-r", "1", "--resource-hosts", tc.hosts, site.URL)
			switch {
			case tc.want == "" && code != 0:
				t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr)
			case tc.want != "" && (code != exitUsage || !strings.Contains(stderr, tc.want)):
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}
