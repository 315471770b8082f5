package replay

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/webload/webload/urls"
)

// Plan is a first pass over the logs: the URLs the replay requests (the run's targets, in the
// order first logged; a shard's too are the whole log's), how many requests and over which stretch of the log's clock. Its
// memory is the distinct URLs, not the lines.
type Plan struct {
	opt Options
	// Targets are the distinct method and URL pairs, each with the log line that first had it
	// as its Source.
	Targets []urls.Target
	index   map[targetKey]int
	// Counts are the first pass's: the planned requests, the lines left out and why.
	Counts Counts
	// First and Last are the logged seconds of the first and last request replayed.
	First, Last int64
	// buckets count the requests by due time, per Options.Interval from the start, the
	// intervals without a request left out: a log may be quiet for days. nil without an
	// interval.
	buckets []bucket

	schedule *Schedule // the latest opened, whose figures the result reports
	upTo     []int     // the lines read of each log, which the run's pass reads again
	// wholeRequests are the whole log's requests when this shard has none of them (Empty), else 0.
	wholeRequests int64
}

// targetKey finds a request's target.
type targetKey struct{ method, url string }

// NewPlan reads the logs once. Lines that are no request are counted, never fatal; a log with
// no request to replay is an error that says what its lines were.
func NewPlan(opt Options) (*Plan, error) {
	// Every shard lists the whole log's URLs, so that their results line up URL by URL to
	// merge; each counts its own visitors' requests.
	if err := checkReadTwice(opt.Logs); err != nil {
		return nil, err
	}
	whole := opt
	whole.Shard, whole.Shards = 0, 0
	s, err := Open(whole)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	p := &Plan{opt: opt, index: map[targetKey]int{}}
	var planned, all int64
	var allFirst, allLast int64
	for {
		e, ok := s.Next()
		if !ok {
			break
		}
		k := targetKey{e.Method, e.URL}
		if _, seen := p.index[k]; !seen {
			p.index[k] = len(p.Targets)
			p.Targets = append(p.Targets, urls.Target{Method: e.Method, URL: e.URL, Source: fmt.Sprintf("%s:%d", e.Log, e.Line)})
		}
		if all == 0 {
			allFirst = e.At
		}
		all++
		allLast = e.At
		if !opt.owns(e.Visitor) {
			continue
		}
		if planned == 0 {
			p.First = e.At
		}
		planned++
		p.Last = e.At
		if opt.Interval > 0 {
			p.count(int64(e.Due / opt.Interval))
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	p.Counts = s.Counts()
	p.Counts.Planned = planned
	p.upTo = s.linesRead()
	if all == 0 {
		return nil, fmt.Errorf("no requests to replay in %s (%d lines read; %s)", strings.Join(opt.Logs, ", "), p.Counts.Lines, p.Counts.leftOut())
	}
	if planned == 0 {
		// A shard dealt none of the visitors still runs, sends nothing and writes its empty
		// result, which the merge needs; its stretch and rate are the whole log's, to describe it.
		p.First, p.Last, p.wholeRequests = allFirst, allLast, all
	}
	return p, nil
}

// Span is how long the replay takes by its schedule: from the first logged second to the end
// of the last, divided by the speed.
func (p *Plan) Span() time.Duration {
	return time.Duration(min(p.spanSeconds(), maxReplaySeconds) * float64(time.Second))
}

// spanSeconds is Span in seconds, as fine as a float holds: at a high speed the span is shorter
// than a nanosecond.
func (p *Plan) spanSeconds() float64 { return float64(p.Last-p.First+1) / p.opt.speed() }

// Rate is the mean rate the schedule plans, requests per second; finite, however fast the
// speed. A shard dealt none of the log's visitors (Empty) has the whole log's, which only
// describes the log: an open-model run needs a rate above zero.
func (p *Plan) Rate() float64 {
	return min(float64(max(p.Counts.Planned, p.wholeRequests))/p.spanSeconds(), math.MaxFloat64)
}

// Empty tells whether this shard was dealt none of the log's visitors: it sends nothing.
func (p *Plan) Empty() bool { return p.Counts.Planned == 0 }

// leftOut says what became of the lines not replayed, for a message.
func (c *Counts) leftOut() string {
	parts := []string{fmt.Sprintf("unparsable %d", c.Unparsed)}
	for _, r := range slices.Sorted(maps.Keys(c.Skipped)) {
		parts = append(parts, fmt.Sprintf("%s %d", r, c.Skipped[r]))
	}
	return "left out: " + strings.Join(parts, ", ")
}
