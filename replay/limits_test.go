package replay

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// at is a combined-format line logged at t.
func at(t time.Time, path string) string {
	return fmt.Sprintf(`10.0.0.1 - - [%s] "GET %s HTTP/1.1" 200 512 "-" "Mozilla/5.0"`, t.Format("02/Jan/2006:15:04:05 -0700"), path)
}

// A replay lasts at most what a time.Duration holds (290 years, a little less than a time.Duration holds): a line logged too long
// after the first (a corrupt year) or a speed so slow that the log would take longer is an
// error naming the line, not a schedule whose due times wrap round.
func TestPlanRefusesAScheduleLongerThanADurationHolds(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 10, 10, 13, 55, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		lines []any
		speed float64
		want  string // in the error, after the log's name
	}{
		{"year 9999", []any{at(start, "/a"), at(time.Date(9999, 10, 10, 0, 0, 0, 0, time.UTC), "/b")}, 1, ":2: logged at 9999-10-10T00:00:00Z,"},
		{"year 0", []any{at(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "/a"), at(start, "/b")}, 1, ":2: logged at 2026-10-10T13:55:00Z,"},
		{"two days at 1e-300x", []any{at(start, "/a"), at(start.Add(48*time.Hour), "/b")}, 1e-300, ":2: logged at 2026-10-12T13:55:00Z,"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := writeLog(t, t.TempDir(), "a.log", false, tc.lines...)
			o := opts(log)
			o.Speed, o.Interval = tc.speed, time.Second
			p, err := NewPlan(o)
			if err == nil {
				t.Fatalf("planned %d requests over %v, want an error", p.Counts.Planned, p.Span())
			}
			if msg := err.Error(); !strings.HasPrefix(msg, log+tc.want) || !strings.Contains(msg, "290 years") || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line starting %q and saying 290 years", msg, log+tc.want)
			}
		})
	}
}

// The mean rate of a replay faster than anything can send is still a finite number: the run's
// settings refuse an infinite one, with a message about a --rate no one gave.
func TestPlanRateStaysFinite(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 10, 10, 13, 55, 0, 0, time.UTC)
	log := writeLog(t, t.TempDir(), "a.log", false, at(start, "/a"), at(start, "/b"), at(start.Add(48*time.Hour), "/c"))
	for _, speed := range []float64{1e300, math.MaxFloat64} {
		o := opts(log)
		o.Speed = speed
		p, err := NewPlan(o)
		if err != nil {
			t.Fatal(err)
		}
		if r := p.Rate(); !(r > 0 && r <= math.MaxFloat64) {
			t.Errorf("at %gx: rate %v, want a positive finite number", speed, r)
		}
		if d := p.Describe(); strings.Contains(d, "Inf") || strings.Contains(d, "(-") {
			t.Errorf("at %gx: %q", speed, d)
		}
	}
}

// A log with a long quiet stretch (two lines a year apart) plans two requests: the plan's
// timeline keeps what they need, not a bucket for every second between them, and the result's
// stops where the run's timeline does.
func TestPlanTimelineOfALongGapIsSmall(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 10, 10, 13, 55, 0, 0, time.UTC)
	log := writeLog(t, t.TempDir(), "a.log", false, at(start, "/a"), at(start, "/a"), at(start.AddDate(1, 0, 0), "/b"))
	o := opts(log)
	o.Interval = time.Second
	p, err := NewPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.buckets); n > 2 {
		t.Errorf("the plan keeps %d timeline buckets for 2 seconds with requests", n)
	}
	rep := &stats.Report{Timeline: make([]stats.TimelinePoint, 3)}
	p.AddTo(rep, loader.Outcome{})
	if got := rep.Replay.PlannedTimeline; len(got) != 1 || got[0] != 2 {
		t.Errorf("planned timeline of %d intervals for a run of 3, want [2]", len(got))
	}
}

// A log still being written (the server's own access.log) grows between the plan's pass and
// the run's: the run sends the requests planned, no more, and none goes missing unsaid.
func TestScheduleSendsWhatWasPlanned(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 10, 10, 13, 55, 0, 0, time.UTC)
	log := writeLog(t, t.TempDir(), "a.log", false, at(start, "/a"), at(start, "/b"), at(start.Add(time.Second), "/a"))
	p, err := NewPlan(opts(log))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(at(start.Add(2*time.Second), "/a") + "\n" + at(start.Add(2*time.Second), "/new") + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Open()
	if err != nil {
		t.Fatal(err)
	}
	var sent int64
	for {
		if _, ok := s.Next(); !ok {
			break
		}
		sent++
	}
	if sent != p.Counts.Planned {
		t.Errorf("the run was handed %d requests, the plan has %d", sent, p.Counts.Planned)
	}
	rep := &stats.Report{}
	p.AddTo(rep, loader.Outcome{})
	if rep.Replay.Lines != 3 || rep.Replay.Planned != 3 {
		t.Errorf("replay section %+v, want the 3 lines planned", rep.Replay)
	}
}

// A log changed between the plan's pass and the run's leaves planned requests unsent: replaced
// (rotated under the same name) it may hold a URL the plan never listed; cut shorter (truncated,
// or rotated for a shorter one) it ends before them. The result counts them, with why.
func TestScheduleCountsRequestsALogNoLongerHolds(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 10, 10, 13, 55, 0, 0, time.UTC)
	tests := []struct {
		name          string
		planned, sent []string
		reason        string
		want          int64
	}{
		{"a URL the plan never listed", []string{"/a", "/b"}, []string{"/a", "/other"}, skipChanged, 1},
		{"the log cut shorter", []string{"/a", "/b", "/a"}, []string{"/a"}, skipGone, 2},
	}
	lines := func(paths []string) []any {
		var l []any
		for _, p := range paths {
			l = append(l, at(start, p))
		}
		return l
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			log := writeLog(t, t.TempDir(), "a.log", false, lines(tt.planned)...)
			p, err := NewPlan(opts(log))
			if err != nil {
				t.Fatal(err)
			}
			writeLog(t, filepath.Dir(log), "a.log", false, lines(tt.sent)...)
			s, err := p.Open()
			if err != nil {
				t.Fatal(err)
			}
			for {
				if _, ok := s.Next(); !ok {
					break
				}
			}
			rep := &stats.Report{}
			p.AddTo(rep, loader.Outcome{})
			if n := rep.Replay.Skipped[tt.reason]; n != tt.want {
				t.Errorf("left out %v, want %d %q", rep.Replay.Skipped, tt.want, tt.reason)
			}
		})
	}
}
