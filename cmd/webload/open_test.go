package main

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
)

// openReport is the part of the JSON result the open-model tests read.
type openReport struct {
	Requests     int64 `json:"requests"`
	Transactions int64 `json:"transactions"`
	Percentiles  struct {
		P50 float64 `json:"p50"`
		P99 float64 `json:"p99"`
	} `json:"percentiles"`
	Schedule *struct {
		Sent   int64   `json:"sent"`
		Unsent int64   `json:"unsent"`
		LagP99 float64 `json:"lag_p99"`
	} `json:"schedule"`
	SteadyState *struct {
		From         float64 `json:"from"`
		Transactions int64   `json:"transactions"`
	} `json:"steady_state"`
	Timeline []struct {
		Requests int64 `json:"requests"`
	} `json:"timeline"`
}

func readOpenReport(t *testing.T, stdout string) openReport {
	t.Helper()
	var r openReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	return r
}

func TestRateKeepsItsCount(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := newCounter(t, 0, 200)
	stdout, stderr, code := webload(t, nil, "-j", "--rate", "200", "-t", "2S", site.URL+"/r")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readOpenReport(t, stdout)
	if r.Schedule == nil {
		t.Fatal("no schedule in the open model's JSON")
	}
	// 400 requests are due in 2 s; one the stop overtakes is counted as unsent, never lost.
	// How many the stop overtakes depends on how late a busy machine runs the dispatcher.
	if r.Schedule.Sent+r.Schedule.Unsent != 400 || r.Requests != r.Schedule.Sent || r.Requests == 0 {
		t.Errorf("sent %d, unsent %d, requests %d; want 400 due, the sent ones reported", r.Schedule.Sent, r.Schedule.Unsent, r.Requests)
	}
	var inTimeline int64
	for _, p := range r.Timeline {
		inTimeline += p.Requests
	}
	if len(r.Timeline) == 0 || inTimeline != r.Requests {
		t.Errorf("timeline of %d points holds %d requests, want %d", len(r.Timeline), inTimeline, r.Requests)
	}
	if got := site.snapshot()["/r"]; int64(got) != r.Requests {
		t.Errorf("server saw %d requests, report says %d", got, r.Requests)
	}
}

func TestRateWithTotalAndRamp(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := newCounter(t, 0, 200)
	// A 1 s ramp to 100/s sends 50 requests, then 100/s: 150 requests take 2 s.
	stdout, stderr, code := webload(t, nil, "-j", "--rate", "6000/1m", "--ramp", "1s", "-r", "150", site.URL+"/ramp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readOpenReport(t, stdout)
	if r.Requests != 150 || site.snapshot()["/ramp"] != 150 {
		t.Errorf("requests %d, server saw %d; want 150", r.Requests, site.snapshot()["/ramp"])
	}
	if r.SteadyState == nil || r.SteadyState.From != 1 || r.SteadyState.Transactions != 100 {
		t.Errorf("steady state %+v, want the 100 requests after the 1 s ramp", r.SteadyState)
	}
}

// stallSite answers at once, except that every request arriving (or still being answered)
// during [from, to) of the run waits until to: a database lock freezing the whole site.
func stallSite(t *testing.T, from, to time.Duration) *httptest.Server {
	t.Helper()
	var once sync.Once
	var start time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { start = time.Now() })
		if since := time.Since(start); since >= from && since < to {
			select {
			case <-time.After(to - since):
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The stall test: the site freezes for 2 s at second 3 of an 8 s run. At a fixed
// arrival rate the freeze shows in the tail; 20 closed-model users simply wait through it, and
// the freeze costs them only 20 slow requests out of thousands. The checks are counts of slow
// requests (--csv), which the freeze alone decides, not figures that depend on the throughput.
func TestStallShowsInTheOpenModel(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, r openReport, slow int)
	}{
		{"open model at 100/s", []string{"--rate", "100"}, func(t *testing.T, r openReport, slow int) {
			// The 50 requests due in the freeze's first half second wait at least 1.5 s each:
			// their response time counts from when they were due.
			if slow < 50 || r.Percentiles.P99 < 1.5 {
				t.Errorf("open model: %d requests of 1.5 s or more, p99 %.3f s; want at least 50 and p99 >= 1.5 s", slow, r.Percentiles.P99)
			}
		}},
		{"closed model with 20 users", []string{"-c", "20"}, func(t *testing.T, r openReport, slow int) {
			// A user waits through the freeze once: at most one slow request each.
			if slow > 20 || slow < 1 {
				t.Errorf("closed model: %d requests of 1.5 s or more, want 1 to 20 (one per user at most)", slow)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			site := stallSite(t, 3*time.Second, 5*time.Second)
			file := filepath.Join(t.TempDir(), "requests.csv")
			args := append([]string{"-j", "-t", "8S", "--csv", file}, tc.args...)
			stdout, stderr, code := webload(t, nil, append(args, site.URL+"/stall")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			r := readOpenReport(t, stdout)
			slow := 0
			for _, ms := range csvColumn(t, file, "latency_ms") {
				if v, err := strconv.ParseFloat(ms, 64); err != nil {
					t.Fatalf("latency_ms %q: %v", ms, err)
				} else if v >= 1500 {
					slow++
				}
			}
			t.Logf("%s: %d requests, %d of 1.5 s or more, p50 %.4f s, p99 %.4f s", tc.name, r.Requests, slow, r.Percentiles.P50, r.Percentiles.P99)
			tc.check(t, r, slow)
		})
	}
}

// csvColumn reads one column of a --csv file by its header.
func csvColumn(t *testing.T, path, name string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("reading %s: %v", path, err)
	}
	col := slices.Index(rows[0], name)
	if col < 0 {
		t.Fatalf("no column %s in %q", name, rows[0])
	}
	var out []string
	for _, row := range rows[1:] {
		out = append(out, row[col])
	}
	return out
}

// Extreme rates keep to -t: at a trillion a second the unsent requests are counted without
// walking the schedule, and at one request in 316 years the schedule does not wrap around.
func TestExtremeRatesEndWithTheRun(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	tests := []struct {
		rate string
		due  int64 // sent + unsent in the 1 s run
	}{
		{"1e12", 1e12},
		{"1e-10", 1},
	}
	for _, tc := range tests {
		t.Run(tc.rate, func(t *testing.T) {
			t.Parallel()
			type result struct {
				stdout, stderr string
				code           int
			}
			done := make(chan result, 1)
			go func() {
				var r result
				r.stdout, r.stderr, r.code = webload(t, nil, "-j", "--rate", tc.rate, "--max-users", "4", "-t", "1S", site.URL+"/x")
				done <- r
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the run did not end")
			}
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			rep := readOpenReport(t, r.stdout)
			if rep.Schedule == nil || rep.Schedule.Sent+rep.Schedule.Unsent != tc.due {
				t.Errorf("schedule %+v, want %d due", rep.Schedule, tc.due)
			}
		})
	}
}

// A -t that rounds to no time at all would mean no limit; it is refused, naming the flag.
func TestRunTimeTooShortIsRefused(t *testing.T) {
	t.Parallel()
	_, stderr, code := webload(t, nil, "-t", "1e-10S", "http://127.0.0.1:1/")
	if code != exitUsage || !strings.HasPrefix(stderr, "webload: -t: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line naming -t", code, stderr)
	}
}
