package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkSite answers 200 on every page, with the database error page on /db/1 and /db/2.
func checkSite(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if strings.HasPrefix(r.URL.Path, "/db/") {
			fmt.Fprint(w, "<html><body>A database query error has occurred</body></html>")
			return
		}
		fmt.Fprint(w, "<html><body>Price: 15.65 EUR</body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// --check and #@check make pages that answer 200 with an error failed transactions: JSON
// errors.check counts them, each URL row names its failed check, availability falls and
// --assert availability>=99.9 fails the run (exit 1). In plain, open-model and browser-like runs.
func TestCheckFailsTheRun(t *testing.T) {
	t.Parallel()
	srv := checkSite(t)
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	content := srv.URL + "/ok\n#@check body!~\"database query error\"\n" + srv.URL + "/db/1\n" + srv.URL + "/db/2\n"
	if err := os.WriteFile(list, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		// failed is how many requests fail: /db/1 by its own check, /db/2 by --check's.
		failed int64
	}{
		{"plain", []string{"--no-parser", "--no-follow", "--no-cookies", "-c", "2", "-r", "3"}, 4},
		{"browser", []string{"-c", "2", "-r", "3"}, 4},
		{"open model", []string{"--rate", "200", "-r", "18"}, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "r.json")
			args := append(append([]string{"-q", "-o", out, "-f", list}, tt.args...),
				"--check", "status==200", "--check", `body!~"database"`, "--assert", "availability>=99.9")
			_, stderr, code := webload(t, nil, args...)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (a broken gate)\n%s", code, stderr)
			}
			var rep struct {
				Errors map[string]int64 `json:"errors"`
				URLs   []struct {
					URL          string `json:"url"`
					Failures     int64  `json:"failures"`
					CheckFailure string `json:"check_failure"`
				} `json:"urls"`
				Availability float64 `json:"availability"`
			}
			saved, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(saved, &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Errors["check"] != tt.failed || rep.Availability >= 99.9 {
				t.Errorf("errors %v, availability %v; want %d check failures", rep.Errors, rep.Availability, tt.failed)
			}
			want := []string{"", `check body!~"database query error" failed`, `check body!~"database" failed`}
			for i, u := range rep.URLs {
				if u.CheckFailure != want[i] || (u.Failures > 0) != (want[i] != "") {
					t.Errorf("%s: %d failures, check %q; want %q", u.URL, u.Failures, u.CheckFailure, want[i])
				}
			}
		})
	}
}

// A bad --check or #@check stops before the run (exit 2), naming the column of the problem.
func TestBadCheckExpressions(t *testing.T) {
	t.Parallel()
	srv := checkSite(t)
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(list, []byte(srv.URL+"/ok\n#@check size>=10XB\n"+srv.URL+"/db/1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"flag", []string{"--check", "status=200", srv.URL + "/ok"}, "--check: col 7: want ==, !=, <, <=, > or >= after status"},
		{"second flag", []string{"--check", "status==200", "--check", `body~"(x"`, srv.URL + "/ok"}, "--check: col 6: bad regular expression"},
		{"URL file", []string{"-f", list}, list + ":2: col 15: want a size such as 512KB or 10MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, append([]string{"-r", "1"}, tt.args...)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
		})
	}
}
