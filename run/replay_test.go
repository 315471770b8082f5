package run

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// fixedReplay is a Replay of n arrivals of one visitor, 1 ms apart, counting its openings.
type fixedReplay struct {
	n       int
	opened  int
	openErr error
}

type fixedSchedule struct{ left, i int }

func (s *fixedSchedule) Next() (loader.Arrival, bool) {
	if s.left == 0 {
		return loader.Arrival{}, false
	}
	s.left--
	s.i++
	return loader.Arrival{Due: time.Duration(s.i) * time.Millisecond, Visitor: "v"}, true
}

func (s *fixedSchedule) Dispatched(time.Duration) {}

func (r *fixedReplay) Open() (loader.Schedule, error) {
	r.opened++
	return &fixedSchedule{left: r.n}, r.openErr
}

func (r *fixedReplay) Describe() string { return "a fixed schedule" }

func (r *fixedReplay) AddTo(rep *stats.Report, o loader.Outcome) {
	rep.Replay = &stats.Replay{Planned: int64(r.n), Unsent: o.Unsent}
}

// A replay's run sends its schedule instead of the rate, says so in the banner, and its result
// has the replay's section; a schedule that cannot be opened is a setting error, nothing sent.
func TestExecuteReplay(t *testing.T) {
	t.Parallel()
	s := newSite(t, nil)
	spec := smallSpec(t, s.URL+"/p", 1, 0)
	spec.Config.Users, spec.Config.Rate, spec.Config.MaxUsers = 0, 1, 4
	spec.Info = NewInfo(&spec.Config, "", "", "test")
	r := &fixedReplay{n: 7}
	spec.Replay = r
	spec.Outputs.Quiet = false
	var stderr bytes.Buffer
	rep, err := Execute(t.Context(), spec, Streams{Stdout: new(bytes.Buffer), Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if s.hits.Load() != 7 || rep.Requests != 7 || rep.Replay == nil || rep.Replay.Planned != 7 || r.opened != 1 {
		t.Errorf("%d hits, %d requests, replay %+v, opened %d; want the 7 of the schedule", s.hits.Load(), rep.Requests, rep.Replay, r.opened)
	}
	if !strings.Contains(stderr.String(), "** a fixed schedule (open model, up to 4 users), to the log's end, over 1 URL") {
		t.Errorf("banner %q", stderr.String())
	}

	bad := &fixedReplay{n: 1, openErr: errors.New("cannot read")}
	spec.Replay, spec.Outputs.Quiet = bad, true
	_, err = Execute(t.Context(), spec, Streams{Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)})
	var setting SettingError
	if !errors.As(err, &setting) || s.hits.Load() != 7 {
		t.Errorf("error %v, %d hits; want a setting error and nothing sent", err, s.hits.Load())
	}
}
