package replay

import (
	"container/heap"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/webload/webload/urls"
)

// Event is one request of the schedule.
type Event struct {
	// Due is when the request is to be sent, from the start of the replay: its logged time
	// less the first request's, divided by the speed.
	Due time.Duration
	// Visitor names who sent it: the logged client address and user agent, or the field
	// Options.VisitorField names.
	Visitor string
	// Method and URL are the request, URL rewritten to the site under test.
	Method, URL string
	// At is the logged time in Unix seconds.
	At int64
	// Log and Line are where it was logged.
	Log  string
	Line int
}

// maxSamples is how many unparsable lines Counts quotes.
const maxSamples = 10

// Counts are what the logs held besides the requests replayed, so that a user sees what the
// replay leaves out and why.
type Counts struct {
	// Lines counts the lines read, blank ones included.
	Lines int64
	// Planned counts the requests replayed (by this shard, when sharded).
	Planned int64
	// Unparsed counts lines that are no request in the common or combined format (or whose
	// target is no URL); Samples quotes the first few as "FILE:LINE: problem".
	Unparsed int64
	Samples  []string
	// Skipped counts the lines left out on purpose, by reason: the filters' (urls.ImportSummary's
	// keys: "status", "method", "bot", "asset: *.css", ...), "blank", "before --from" and
	// "from --to on".
	Skipped map[string]int64
}

// Reasons a line outside the window is left out.
const (
	skipBeforeFrom = "before --from"
	skipAfterTo    = "from --to on"
	// skipChanged is a request of the run's pass whose URL the plan's never saw: the log
	// changed between them.
	skipChanged = "not in the log when planned"
	// skipGone is a planned request the run's pass did not find: the log was cut shorter.
	skipGone = "gone from the log when sent"
)

// Stream reads the logs' requests in time order, one at a time: each log holds its next
// request, and a heap gives the earliest. The formats log whole seconds; the requests of one
// second are spread evenly over it, in their order, so that a second's burst keeps its size
// without leaving all at once. Memory is the logs' read buffers and the busiest second's
// requests. Not safe for concurrent use.
type Stream struct {
	opt     Options
	filter  *urls.AccessFilter
	sources sourceHeap
	all     []*source // for Close
	counts  Counts
	group   []Event // the requests of the second being handed out
	next    int     // group[next] is the next to hand out
	t0      int64   // the first request's second
	last    int64   // the second handed out last
	lastDue time.Duration
	started bool
	err     error
}

// Open opens every log and reads each up to its first request. The errors are a bad option,
// a log that cannot be opened or read, and a log of paths without a site (urls.ErrNeedBase),
// each naming the file (and line).
func Open(opt Options) (*Stream, error) {
	if len(opt.Logs) == 0 {
		return nil, errors.New("no logs to replay")
	}
	if !opt.From.IsZero() && !opt.To.IsZero() && !opt.From.Before(opt.To) {
		return nil, fmt.Errorf("--to %s is not after --from %s", opt.To.Format(time.RFC3339), opt.From.Format(time.RFC3339))
	}
	f, err := urls.NewAccessFilter(opt.Filter)
	if err != nil {
		// The filter's messages name urls import's flags; the site is its --base.
		if rest, ok := strings.CutPrefix(err.Error(), "bad --base "); ok {
			return nil, fmt.Errorf("bad --site %s", rest)
		}
		return nil, err
	}
	s := &Stream{opt: opt, filter: f, counts: Counts{Skipped: map[string]int64{}}}
	for i, name := range opt.Logs {
		lf, err := urls.OpenLog(name)
		if err != nil {
			s.Close()
			return nil, err
		}
		src := &source{idx: i, name: name, log: lf}
		s.all = append(s.all, src)
		if s.advance(src) {
			s.sources = append(s.sources, src)
		}
		if s.err != nil {
			s.Close()
			return nil, s.err
		}
	}
	heap.Init(&s.sources)
	return s, nil
}

// Next returns the next request in time order (of this shard's visitors); false at the end of
// the logs or at an error, which Err then reports.
func (s *Stream) Next() (Event, bool) {
	for {
		if s.next >= len(s.group) && !s.fill() {
			return Event{}, false
		}
		e := s.group[s.next]
		s.group[s.next] = Event{} // the strings go as soon as they are handed out
		s.next++
		if s.opt.owns(e.Visitor) {
			s.counts.Planned++
			return e, true
		}
	}
}

// fill takes the requests of the next logged second off the heap and gives them their due times.
func (s *Stream) fill() bool {
	s.group, s.next = s.group[:0], 0
	if s.err != nil || len(s.sources) == 0 {
		return false
	}
	sec := s.sources[0].head.At
	if s.started {
		sec = max(sec, s.last) // a line logged out of order goes with the second before it
	} else {
		s.t0, s.started = sec, true
	}
	for len(s.sources) > 0 && s.sources[0].head.At <= sec {
		src := s.sources[0]
		s.group = append(s.group, src.head)
		if s.advance(src) {
			heap.Fix(&s.sources, 0)
		} else {
			heap.Pop(&s.sources)
		}
		if s.err != nil {
			return false
		}
	}
	n, speed := float64(len(s.group)), s.opt.speed()
	for k := range s.group {
		s.group[k].At = max(s.group[k].At, sec)
		secs := (float64(sec-s.t0) + float64(k)/n) / speed
		if secs >= maxReplaySeconds {
			e := &s.group[k]
			s.err = &urls.LineError{File: e.Log, Line: e.Line, Err: fmt.Errorf("logged at %s, %s after the first request: at %gx the replay would last longer than the 290 years a run can",
				time.Unix(e.At, 0).UTC().Format(time.RFC3339), clockSpan(e.At-s.t0), speed)}
			return false
		}
		// A second met again (a line out of order) must not send before the one handed out.
		s.lastDue = max(s.lastDue, time.Duration(secs*float64(time.Second)))
		s.group[k].Due = s.lastDue
	}
	s.last = sec
	return true
}

// Counts are the lines read so far and what became of them. The map and slice are the
// stream's own: read them once the stream has ended.
func (s *Stream) Counts() Counts { return s.counts }

// Err is the error that ended the stream early, naming the file; nil at the logs' end.
func (s *Stream) Err() error { return s.err }

// linesRead is how many lines of each log were read, in the order of Options.Logs.
func (s *Stream) linesRead() []int {
	n := make([]int, len(s.opt.Logs))
	for _, src := range s.all {
		n[src.idx] = src.read
	}
	return n
}

// Close closes the logs.
func (s *Stream) Close() error {
	var errs []error
	for _, src := range s.all {
		errs = append(errs, src.log.Close())
	}
	s.all, s.sources = nil, nil
	return errors.Join(errs...)
}

// source is one log and its next request.
type source struct {
	idx  int // the log's place in Options.Logs: of two lines of one second, the first log's goes first
	name string
	log  *urls.LogFile
	head Event
	read int // the lines read so far
}

// advance reads src up to its next request within the window, counting the lines on the way;
// false at the log's end or at an error, which s.err then holds.
func (s *Stream) advance(src *source) bool {
	for {
		text, num, long, ok := src.log.Next()
		if !ok {
			s.err = src.log.Err()
			return false
		}
		if s.opt.upTo != nil && num > s.opt.upTo[src.idx] {
			return false // written after the plan's pass
		}
		src.read = num
		s.counts.Lines++
		if long {
			s.unparsed(src.name, num, errors.New("line too long for an access log line"))
			continue
		}
		req, skip, err := s.filter.Line(text)
		switch {
		case errors.Is(err, urls.ErrNeedBase):
			s.err = &urls.LineError{File: src.name, Line: num, Err: errors.New("the log has paths only; give --site URL")}
			return false
		case err != nil:
			s.unparsed(src.name, num, err)
			continue
		case skip != "":
			s.counts.Skipped[skip]++
			continue
		case !s.opt.From.IsZero() && req.At < s.opt.From.Unix():
			s.counts.Skipped[skipBeforeFrom]++
			continue
		case !s.opt.To.IsZero() && req.At >= s.opt.To.Unix():
			s.counts.Skipped[skipAfterTo]++
			continue
		}
		src.head = Event{Visitor: s.opt.visitor(req), Method: req.Method, URL: req.URL, At: req.At, Log: src.name, Line: num}
		return true
	}
}

// unparsed counts a line that is no request and quotes the first few.
func (s *Stream) unparsed(name string, line int, err error) {
	s.counts.Unparsed++
	if len(s.counts.Samples) < maxSamples {
		s.counts.Samples = append(s.counts.Samples, (&urls.LineError{File: name, Line: line, Err: err}).Error())
	}
}

// sourceHeap orders the logs by their next request's second, then by their place.
type sourceHeap []*source

func (h sourceHeap) Len() int { return len(h) }
func (h sourceHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.head.At != b.head.At {
		return a.head.At < b.head.At
	}
	return a.idx < b.idx
}
func (h sourceHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *sourceHeap) Push(x any)   { *h = append(*h, x.(*source)) }
func (h *sourceHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return x
}
