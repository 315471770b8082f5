package main

import (
	"encoding/json"
	"encoding/xml"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/capacity"
	"github.com/webload/webload/internal/capsite"
	"github.com/webload/webload/internal/dbsite"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/run"
	"github.com/webload/webload/stats"
)

// A search reads the databases (--db, a real MariaDB and PostgreSQL) and the server
// (--server-metrics local) over each step, as a run does: the saved result, the step at the
// capacity, carries the database and server sections, the database's counting exactly that
// step's statements, not the whole search's, and --html writes the page. Two steps of 1 s at
// 25 and 50 req/s, judged by the errors alone, pass on any machine.
func TestCapacityReadsTheDatabasesAndTheServer(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	if runtime.GOOS != "linux" {
		t.Skip("--server-metrics local reads /proc")
	}
	for i, db := range dbServers {
		t.Run(db.name, func(t *testing.T) {
			t.Parallel()
			srv := db.start(t)
			perItem := int64(2 + i)
			site := startDBSite(t, dbsite.Options{DSN: srv.DSN, PerItem: int(perItem)})
			dir := t.TempDir()
			out, page := filepath.Join(dir, "cap.json"), filepath.Join(dir, "cap.html")
			before := site.Statements()
			stdout, stderr, code := webload(t, nil, "capacity", "--slo", "error_rate<1", "--step-time", "1s", "--settle", "0",
				"--from", "25", "--max-steps", "2", "--no-parser", "--interval", "200ms",
				"--db", srv.DSN, "--server-metrics", "local", "--html", page, "-o", out, site.URL()+"/item?id=3")
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			html := readFile(t, page)
			noPassword(t, "the search", stdout, stderr, readFile(t, out), html)
			rep, err := stats.ReadJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Capacity == nil || rep.Capacity.Rate != 50 || rep.Run.Rate != 50 {
				t.Fatalf("capacity %+v, saved step at %v req/s; want the step at 50\n%s", rep.Capacity, rep.Run.Rate, stdout)
			}
			sent := site.Statements() - before
			requests := rep.Transactions + rep.FailedTransactions
			wantQueries(t, rep.Database, srv.Kind, perItem*requests, rep.Transactions)
			if step := *rep.Database.Queries; step >= sent {
				t.Errorf("the step at the capacity read %d statements, the whole search sent %d: want the step's own", step, sent)
			}
			if s := rep.Server; s == nil || s.Source != "local" || s.Samples < 2 || s.Failures != 0 {
				t.Errorf("server %+v; want local readings over the step", s)
			}
			if !strings.Contains(html, `"queries":`) || !strings.Contains(html, "Capacity") {
				t.Errorf("the HTML page has no queries or no capacity")
			}
		})
	}
}

// A search writes the outputs a run writes with its result: --junit (the SLO's verdicts on
// the step at the capacity), -l (one line), --history (one result), --csv (a row per request
// of every step) and --html. The site falls over after 75 answers: 25 and 50 req/s pass, 100
// fails, where the three steps allowed end the search.
func TestCapacityWritesTheRunOutputs(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := startCapsite(t, capsite.Config{Workers: 4, Service: time.Millisecond, FailAfter: 75})
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	stdout, stderr, code := webload(t, nil, "capacity", "--slo", "error_rate<1", "--step-time", "1s", "--settle", "0",
		"--from", "25", "--max-steps", "3", "--no-parser", "-o", path("cap.json"), "--junit", path("junit.xml"),
		"-l", path("log.csv"), "--history", path("history"), "--csv", path("requests.csv"), "--html", path("cap.html"), site.URL())
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	var suite struct {
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal([]byte(readFile(t, path("junit.xml"))), &suite); err != nil {
		t.Fatal(err)
	}
	if len(suite.Cases) != 1 || suite.Cases[0].Name != "error_rate<1" || suite.Cases[0].Failure != nil {
		t.Errorf("JUnit cases %+v; want error_rate<1 passed\n%s", suite.Cases, readFile(t, path("junit.xml")))
	}
	if lines := strings.Count(readFile(t, path("log.csv")), "\n"); lines != 2 {
		t.Errorf("the log has %d lines, want its header and the search's", lines)
	}
	if kept, _ := filepath.Glob(path("history/*.json")); len(kept) != 1 {
		t.Errorf("the history keeps %v, want the search's result", kept)
	}
	var saved savedCapacity
	if err := json.Unmarshal([]byte(readFile(t, path("cap.json"))), &saved); err != nil {
		t.Fatal(err)
	}
	if saved.Capacity == nil || saved.Capacity.Rate != 50 || len(saved.Capacity.Steps) != 3 {
		t.Fatalf("saved %+v", saved.Capacity)
	}
	// Every request sent got a row, the failed ones too: the site answers all of them.
	rows := strings.Count(readFile(t, path("requests.csv")), "\n") - 1
	if sent := site.Served() + site.Refused(); int64(rows) != sent {
		t.Errorf("the CSV has %d rows, the site was sent %d requests", rows, sent)
	}
	if !strings.Contains(readFile(t, path("cap.html")), "Capacity") {
		t.Errorf("the HTML page shows no capacity")
	}
}

// What sets the load, or when it starts and stops, is the search's; the flags for a report it
// does not print or for work another flag of the search does are refused too, each by name.
func TestCapacityRefusesWhatSetsTheLoad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", "10"}, "--concurrent does not apply to webload capacity, which sets the load itself"},
		{[]string{"-r", "10"}, "--reps does not apply to webload capacity, which sets the load itself"},
		{[]string{"-t", "10s"}, "--time does not apply to webload capacity, which sets the load itself"},
		{[]string{"--rate", "10"}, "--rate does not apply to webload capacity, which sets the load itself"},
		{[]string{"--ramp", "10s"}, "--ramp does not apply to webload capacity, which sets the load itself"},
		{[]string{"-d", "1"}, "--delay does not apply to webload capacity, which sets the load itself"},
		{[]string{"--failures", "5"}, "--failures does not apply to webload capacity, which sets the load itself"},
		{[]string{"--shard", "0/2"}, "--shard does not apply to webload capacity, which sets the load itself"},
		{[]string{"--start-after", "1s"}, "--start-after does not apply to webload capacity, which sets the load itself"},
		{[]string{"--assert", "p95<1s"}, "--assert does not apply to webload capacity, whose steps are judged by --slo"},
		{[]string{"--abort-on", "p95>1s"}, "--abort-on does not apply to webload capacity, whose steps end early by themselves"},
		{[]string{"--per-url"}, "--per-url does not apply to webload capacity, which prints its steps, not a report"},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			t.Parallel()
			args := append([]string{"capacity", "--slo", "p95<1s"}, tc.args...)
			_, stderr, code := webload(t, nil, append(args, "http://127.0.0.1:1/")...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}

// The --junit cases of a search: the SLO's verdicts on the step at the capacity when one whole
// search found it; otherwise the search's outcome, one case.
func TestCapacityVerdicts(t *testing.T) {
	t.Parallel()
	gate := stats.Verdict{Check: "p95<1s", Passed: true, Text: "p95 = 10.000 ms, allowed < 1000 ms: ok"}
	step := func(rate float64, passed bool) capacity.Step {
		return capacity.Step{Rate: rate, Passed: passed, Verdicts: []stats.Verdict{gate}}
	}
	found := capacity.Result{Rate: 50, Best: 1, NextFailed: 2, Steps: []capacity.Step{step(25, true), step(50, true), step(100, false)}}
	none := capacity.Result{Best: -1, NextFailed: 0, Steps: []capacity.Step{step(25, false), step(25, false)}}
	unjudged := capacity.Result{Best: -1, NextFailed: -1, Steps: []capacity.Step{{Rate: 10, Inconclusive: "5 requests, p95 needs 20"}}}
	for _, tc := range []struct {
		name        string
		searches    []capacity.Result
		interrupted bool
		want        string // the cases' checks and verdicts
	}{
		{"found", []capacity.Result{found}, false, "p95<1s passed"},
		{"none found", []capacity.Result{none}, false, "capacity failed"},
		{"none judged", []capacity.Result{unjudged}, false, "capacity inconclusive"},
		{"interrupted", []capacity.Result{found}, true, "capacity failed"},
		{"repeated", []capacity.Result{found, found}, false, "capacity passed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := run.CapacityFound{Searches: tc.searches}
			if rep, ok, err := capacity.SeriesReport(tc.searches); err == nil && ok {
				f.Summary = *rep.Capacity
			} else {
				f.Summary = tc.searches[len(tc.searches)-1].Summary()
			}
			var got []string
			for _, v := range capacityVerdicts(&f, tc.interrupted) {
				verdict := "failed"
				switch {
				case v.Passed:
					verdict = "passed"
				case v.Inconclusive:
					verdict = "inconclusive"
				}
				word := map[string]string{"passed": ": ok", "failed": ": FAILED", "inconclusive": ": INCONCLUSIVE"}[verdict]
				if v.Check == "capacity" && (math.IsNaN(v.Measured) || !strings.Contains(v.Text, word)) {
					t.Errorf("case %+v: want the capacity measured and the verdict %q", v, word)
				}
				got = append(got, v.Check+" "+verdict)
			}
			if strings.Join(got, ", ") != tc.want {
				t.Fatalf("cases %v, want %s", got, tc.want)
			}
		})
	}
}

// On a terminal, a search draws the progress line of each step, as a run does, between the
// lines of the steps.
func TestCapacityProgressOnATerminal(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	text, err := onTerminal(t, 140, []string{"NO_COLOR=1"}, "capacity", "--slo", "error_rate<1", "--step-time", "1s", "--settle", "0",
		"--from", "25", "--max-steps", "1", site.URL+"/p")
	if err != nil {
		t.Fatalf("webload capacity on a terminal: %v\n%s", err, text)
	}
	if !progressMark.MatchString(text) || !strings.Contains(text, "25 req/s: ") || !strings.Contains(text, "Capacity: at least 25 req/s") {
		t.Errorf("want the step's progress line, its line and the capacity:\n%s", text)
	}
}
