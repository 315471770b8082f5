package replay

import (
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// Schedule is a second pass over the logs that a run's dispatcher pulls its arrivals from
// (loader.Schedule). It keeps how late the dispatcher ran. Only the dispatcher's goroutine
// may call it while the run goes; its figures are read once the run has ended.
type Schedule struct {
	plan   *Plan
	stream *Stream
	late   stats.Latency
	// lost counts requests whose URL the first pass did not see: a log written to between
	// the passes. They are not sent.
	lost int64
	// ended says the pass reached the logs' end, rather than the run stopping first.
	ended bool
}

var _ loader.Schedule = (*Schedule)(nil)

// Open starts a pass over the logs for one run.
func (p *Plan) Open() (loader.Schedule, error) {
	o := p.opt
	o.upTo = p.upTo
	s, err := Open(o)
	if err != nil {
		return nil, err
	}
	p.schedule = &Schedule{plan: p, stream: s}
	return p.schedule, nil
}

// Next implements loader.Schedule. It closes the logs at their end.
func (s *Schedule) Next() (loader.Arrival, bool) {
	for {
		e, ok := s.stream.Next()
		if !ok {
			s.stream.Close()
			s.ended = true
			return loader.Arrival{}, false
		}
		ti, ok := s.plan.index[targetKey{e.Method, e.URL}]
		if !ok {
			s.lost++
			continue
		}
		return loader.Arrival{Due: e.Due, Target: ti, Visitor: e.Visitor}, true
	}
}

// Dispatched implements loader.Schedule.
func (s *Schedule) Dispatched(late time.Duration) { s.late.Record(max(late, 0)) }
