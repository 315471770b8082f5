package replay

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// AddTo puts the replay's section into a run's result: the first pass's plan and counts, the
// latest schedule's lateness, and what the run sent and left unsent.
func (p *Plan) AddTo(rep *stats.Report, o loader.Outcome) {
	c := &p.Counts
	r := &stats.Replay{
		Logs:            slices.Clone(p.opt.Logs),
		Speed:           p.opt.speed(),
		From:            stamp(p.opt.From),
		To:              stamp(p.opt.To),
		LogStart:        time.Unix(p.First, 0).UTC().Format(time.RFC3339),
		LogEnd:          time.Unix(p.Last, 0).UTC().Format(time.RFC3339),
		Lines:           c.Lines,
		Planned:         c.Planned,
		Unsent:          o.Unsent,
		Unparsed:        c.Unparsed,
		UnparsedSamples: slices.Clone(c.Samples),
		PlannedTimeline: p.Timeline(len(rep.Timeline)),
	}
	if len(c.Skipped) > 0 {
		r.Skipped = maps.Clone(c.Skipped)
	}
	if rep.Schedule != nil {
		r.Sent = rep.Schedule.Sent
	}
	if s := p.schedule; s != nil {
		changed := map[string]int64{skipChanged: s.lost}
		if s.ended {
			changed[skipGone] = c.Planned - s.stream.Counts().Planned
		}
		for why, n := range changed {
			if n <= 0 {
				continue
			}
			if r.Skipped == nil {
				r.Skipped = map[string]int64{}
			}
			r.Skipped[why] += n
		}
		r.SetLateness(&s.late)
		s.stream.Close() // a run stopped early leaves the logs open
	}
	rep.Replay = r
}

// Describe says what the plan replays, and how fast, for the banner.
func (p *Plan) Describe() string {
	logs := p.opt.Logs[0]
	if len(p.opt.Logs) > 1 {
		logs = fmt.Sprintf("%d logs", len(p.opt.Logs))
	}
	return fmt.Sprintf("%d requests of %s (%s of its clock) at %gx, %.6g requests/s on average",
		p.Counts.Planned, logs, clockSpan(p.Last-p.First+1), p.opt.speed(), p.Rate())
}

// stamp writes a moment of --from or --to; "" when it was not given.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
