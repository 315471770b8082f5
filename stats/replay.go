package stats

import (
	"fmt"

	"github.com/webload/webload/internal/hdrcodec"
)

// Replay is what a replayed access log planned and how closely the run kept to it (webload
// replay). Times are seconds. Its requests are in every other figure as a run's are; Schedule
// has their send lags and waits for a busy visitor or user.
type Replay struct {
	// Logs are the files replayed, merged by time.
	Logs []string `json:"logs"`
	// Speed divides the log's time: 2 sent it in half its time.
	Speed float64 `json:"speed"`
	// From and To are the window of the log's clock asked for (RFC 3339); "" when open.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// LogStart and LogEnd are the logged times of the first and last request replayed (RFC 3339).
	LogStart string `json:"log_start"`
	LogEnd   string `json:"log_end"`
	// Lines counts the lines read; Planned the requests to replay among them.
	Lines   int64 `json:"lines"`
	Planned int64 `json:"planned"`
	// Sent counts the planned requests sent; Unsent those due before the run stopped that were
	// not. The rest of Planned were due after the stop.
	Sent   int64 `json:"sent"`
	Unsent int64 `json:"unsent"`
	// LatenessP50, LatenessP99 and LatenessMax are how far behind the log's clock the dispatcher
	// handed requests to their visitors: the load generator's own delay, before any wait for a
	// busy visitor.
	LatenessP50 float64 `json:"lateness_p50"`
	LatenessP99 float64 `json:"lateness_p99"`
	LatenessMax float64 `json:"lateness_max"`
	// Dispatched counts the lateness's values, and LatenessHistogram holds them in
	// microseconds (HdrHistogram V2, base64), so that shards' results merge exactly.
	Dispatched        int64  `json:"dispatched"`
	LatenessHistogram string `json:"lateness_histogram,omitempty"`
	// Unparsed counts lines that are no request in the common or combined format;
	// UnparsedSamples quotes the first few as "FILE:LINE: problem".
	Unparsed        int64    `json:"unparsed"`
	UnparsedSamples []string `json:"unparsed_samples,omitempty"`
	// Skipped counts the lines left out on purpose, by reason (the filters of urls import,
	// "before --from", "from --to on", "blank").
	Skipped map[string]int64 `json:"skipped,omitempty"`
	// PlannedTimeline counts the planned requests by due time, per TimelineInterval from the
	// start: the log's own shape, to set beside Timeline's requests (counted by end time).
	PlannedTimeline []int64 `json:"planned_timeline,omitempty"`
}

// SetLateness reads the replay's lateness from the dispatcher's distribution.
func (r *Replay) SetLateness(l *Latency) {
	r.Dispatched, r.LatenessHistogram = l.Count(), l.encode(nil)
	if l.Count() == 0 {
		return
	}
	r.LatenessMax = l.Max()
	r.LatenessP50 = l.Quantile(50, r.LatenessMax)
	r.LatenessP99 = l.Quantile(99, r.LatenessMax)
}

// mergeReplays is the replay section of shards' merged result: the requests planned, sent and
// unsent summed (each shard replays its own visitors), the lateness's distributions added,
// the lines and their counts the first shard's (every shard reads every line). nil when the
// shards were no replay.
func mergeReplays(shards []Report, a *hdrcodec.HistAdder) (*Replay, error) {
	if shards[0].Replay == nil {
		return nil, nil
	}
	m := *shards[0].Replay
	m.Planned, m.Sent, m.Unsent, m.Dispatched, m.LatenessMax = 0, 0, 0, 0, 0
	m.PlannedTimeline = nil
	var late Latency
	for i := range shards {
		r := shards[i].Replay
		if r == nil {
			return nil, fmt.Errorf("run %d is no replay, run 1 is", i+1)
		}
		m.Planned, m.Sent, m.Unsent = m.Planned+r.Planned, m.Sent+r.Sent, m.Unsent+r.Unsent
		m.LogStart, m.LogEnd = min(m.LogStart, r.LogStart), max(m.LogEnd, r.LogEnd)
		for k, n := range r.PlannedTimeline {
			for len(m.PlannedTimeline) <= k {
				m.PlannedTimeline = append(m.PlannedTimeline, 0)
			}
			m.PlannedTimeline[k] += n
		}
		if err := late.addSaved(r.Dispatched, 0, r.LatenessMax, r.LatenessHistogram, a); err != nil {
			return nil, fmt.Errorf("run %d's replay lateness: %w", i+1, err)
		}
	}
	m.Dispatched = late.Count()
	m.LatenessHistogram, m.LatenessP50, m.LatenessP99 = late.encode(nil), 0, 0
	if m.Dispatched > 0 {
		m.LatenessMax = late.Max()
		m.LatenessP50 = late.Quantile(50, m.LatenessMax)
		m.LatenessP99 = late.Quantile(99, m.LatenessMax)
	}
	return &m, nil
}
