package stats

import (
	"math"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// An open-model run worked out by hand: four requests due at 0, 0.5, 1.0 and 1.5 s, 100 ms of
// service each; the third waited 300 ms for a free user. Ramp ends at 1 s, timeline of 1 s.
func TestOpenModelReport(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	rec := NewRecorder([]urls.Target{{Method: "GET", URL: "http://127.0.0.1/"}}, Options{Interval: time.Second, RampEnd: time.Second})
	rec.Record([]loader.Result{
		{Intended: 0, Start: 1 * ms, Latency: 100 * ms, Status: 200, Arrival: true},
		{Intended: 500 * ms, Start: 501 * ms, Latency: 100 * ms, Status: 200, User: 1, Arrival: true},
		{Intended: 1000 * ms, Start: 1300 * ms, Latency: 100 * ms, Status: 200, Queued: true, Arrival: true},
		{Intended: 1500 * ms, Start: 1501 * ms, Latency: 100 * ms, Status: 503, User: 1, Arrival: true},
	})
	out := loader.Outcome{Elapsed: 2 * time.Second, Users: 2, Unsent: 1}
	rep := rec.Report(out, RunInfo{Model: "open", Rate: 2, MaxUsers: 2}, "")

	near := func(a, b float64) bool { return math.Abs(a-b) < 2e-3*math.Max(b, 1e-3) }
	s := rep.Schedule
	if s == nil {
		t.Fatal("no schedule")
	}
	if s.Sent != 4 || s.Unsent != 1 || s.Delayed != 1 || s.Users != 2 || s.MaxUsers != 2 {
		t.Errorf("schedule %+v", s)
	}
	if !near(s.DelayedWaitMax, 0.3) || !near(s.DelayedWaitMean, 0.3) || !near(s.LagMax, 0.3) {
		t.Errorf("waits: mean %v max %v, lag max %v; want 0.3 s", s.DelayedWaitMean, s.DelayedWaitMax, s.LagMax)
	}
	// Response times count from the due time: 101, 101 and 400 ms; service times are 100 ms.
	if !near(rep.Percentiles.Max, 0.4) || !near(rep.ResponseTime, 0.602/3) {
		t.Errorf("response max %v mean %v, want 0.4 and %v", rep.Percentiles.Max, rep.ResponseTime, 0.602/3)
	}
	if !near(rep.ServiceTime.Max, 0.1) {
		t.Errorf("service max %v, want 0.1", rep.ServiceTime.Max)
	}
	// By end time: 0.101 and 0.601 s in bucket 0; 1.4 s and 1.601 s in bucket 1.
	if len(rep.Timeline) != 2 || rep.Timeline[0].Transactions != 2 || rep.Timeline[1].Requests != 2 ||
		rep.Timeline[1].Failed != 1 || !near(rep.Timeline[1].Max, 0.4) {
		t.Errorf("timeline %+v", rep.Timeline)
	}
	st := rep.SteadyState
	if st == nil || st.Requests != 2 || st.Transactions != 1 || st.Failed != 1 || !near(st.TransactionRate, 1) {
		t.Errorf("steady state %+v", st)
	}
	if rep.Users.Count != 2 {
		t.Errorf("users %+v", rep.Users)
	}
}
