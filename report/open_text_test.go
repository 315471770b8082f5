package report

import (
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// In a browser-like run the schedule's arrivals are visits: a visit's redirect hop and resources
// are requests of the report, not arrivals of the schedule, and its lag is its first request's.
func TestOpenModelScheduleCountsVisits(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	rec := stats.NewRecorder([]urls.Target{{Method: "GET", URL: "http://127.0.0.1/go"}}, stats.Options{Interval: time.Second})
	var batch []loader.Result
	for v := range 3 {
		due := time.Duration(v) * 100 * ms
		batch = append(batch,
			loader.Result{Intended: due, Start: due + 2*ms, Latency: ms, Status: 302, Kind: loader.KindURL, Arrival: true},
			loader.Result{Intended: due + 3*ms, Start: due + 3*ms, Latency: ms, Status: 200, Kind: loader.KindURL},
			loader.Result{Intended: due + 4*ms, Start: due + 4*ms, Latency: ms, Status: 200, Kind: loader.KindResource},
			loader.Result{Intended: due + 4*ms, Start: due + 4*ms, Latency: ms, Status: 200, Kind: loader.KindResource},
			loader.Result{Intended: due, Start: due + 2*ms, Latency: 3 * ms, Status: 200, Kind: loader.KindPage})
	}
	rec.Record(batch)
	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, stats.RunInfo{Model: "open", Rate: 10, MaxUsers: 5}, "")
	if rep.Requests != 12 {
		t.Errorf("%d requests, want 12", rep.Requests)
	}
	s := rep.Schedule
	if s == nil || s.Sent != 3 || s.LagMax < 0.0019 || s.LagMax > 0.0021 {
		t.Fatalf("schedule %+v, want 3 visits sent, each 2 ms late", s)
	}
	var text strings.Builder
	if err := WriteText(&text, &rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "visits/sec planned; 3 visits sent, 0 unsent") {
		t.Errorf("the schedule's line does not count visits:\n%s", text.String())
	}
}

// The planned rate is printed with its significant digits when it is below a tenth a second, so a
// slow schedule is not shown as "0.00 req/sec planned".
func TestPlannedRateText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rate float64
		want string
	}{
		{"one every ten billion seconds", 1e-10, "       1e-10 req/sec planned"},
		{"one a minute", 1.0 / 60, "      0.0167 req/sec planned"},
		{"one every two seconds", 0.5, "        0.50 req/sec planned"},
		{"one every ten seconds", 0.1, "        0.10 req/sec planned"},
		{"one every twenty seconds", 0.05, "        0.05 req/sec planned"},
		{"one every three hundred seconds", 1.0 / 300, "     0.00333 req/sec planned"},
		{"one a second", 1, "        1.00 req/sec planned"},
		{"fast", 2500.5, "     2500.50 req/sec planned"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := stats.Report{Schedule: &stats.Schedule{Rate: tc.rate, Sent: 1}}
			var b strings.Builder
			writeSchedule(&b, &rep, rep.Schedule)
			if !strings.Contains(b.String(), "Arrival rate:\t\t"+tc.want+";") {
				t.Errorf("rate %v printed as\n%s\nwant %q", tc.rate, b.String(), tc.want)
			}
		})
	}
}
