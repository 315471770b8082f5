// Package replay turns access logs into a run's schedule: each logged request is sent at its
// own moment, (t − t₀) / speed from the start, by the visitor that made it. The logs stream
// (plain or gzip, several merged by time), so memory does not grow with their length; the
// lines are read and filtered by package urls exactly as `webload urls import` reads them.
// A Plan is the first pass over the logs (the URLs, the count, the first and last moment);
// a Schedule the second, which the loader's open-model dispatcher pulls arrivals from.
package replay

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/webload/webload/urls"
)

// Options say which logs to replay, which of their lines and how fast.
type Options struct {
	// Logs are the files, plain or gzip, merged by the time of their lines. Each must be in
	// time order (servers write them so); a line logged earlier than the one before it is sent
	// with the line before it.
	Logs []string
	// Filter is urls.Import's filtering and rewriting of access logs; its Base is the site the
	// requests go to (--site), which replaces the logged scheme and host.
	Filter urls.ImportOptions
	// Speed divides the log's time: 2 sends the log in half its time. 0 means 1.
	Speed float64
	// From and To keep the lines logged at From or later and before To, by the log's own
	// clock; a zero time leaves that side open.
	From, To time.Time
	// Interval is the width of the run's timeline buckets: the plan counts its requests by due
	// time in buckets as wide, to set beside what the run sent. 0 counts none.
	Interval time.Duration
	// VisitorField, when above 0, names each visitor by the field the log has at that place
	// after the user agent (1 for the first), such as a session cookie its format logs, rather
	// than by its address and user agent: visitors behind one proxy then stay apart. A line
	// without that field, or with "-" or "" in it, falls back to address and user agent.
	VisitorField int
	// Shard and Shards make this replay one of Shards parts (0-based Shard), dealt out by
	// visitor, so that each visitor's session stays whole in one shard. Every shard keeps the
	// whole log's clock: its requests are due when they would be in the whole replay. Shards 0
	// or 1 is the whole replay.
	Shard, Shards int

	// upTo, when set, is how many lines of each log the plan read: the run's pass stops there,
	// so that a log still being written sends what was planned.
	upTo []int
}

// owns tells whether the visitor's requests are this shard's: by a hash of its key, which
// every shard computes alike.
func (o *Options) owns(visitor string) bool {
	if o.Shards <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(visitor))
	return h.Sum64()%uint64(o.Shards) == uint64(o.Shard)
}

// speed is Speed with its default.
func (o *Options) speed() float64 {
	if o.Speed <= 0 {
		return 1
	}
	return o.Speed
}

// ErrBadSpeed is ParseSpeed's error.
var ErrBadSpeed = errors.New("want a positive factor such as 2, 2x or 200%")

// ParseSpeed reads a speed as a factor ("2", "0.5"), with an x ("2x") or as a percentage
// ("200%", the way GoReplay writes it).
func ParseSpeed(s string) (float64, error) {
	t := strings.TrimSpace(s)
	div := 1.0
	switch {
	case strings.HasSuffix(t, "%"):
		t, div = strings.TrimSuffix(t, "%"), 100
	case strings.HasSuffix(t, "x"), strings.HasSuffix(t, "X"):
		t = t[:len(t)-1]
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("bad speed %q: %w", s, ErrBadSpeed)
	}
	return f / div, nil
}

// logTimeLayouts are the forms --from and --to take: the access log's own, as copied from a
// line, and RFC 3339 with or without a zone (without one, UTC).
var logTimeLayouts = []string{
	"02/Jan/2006:15:04:05 -0700",
	time.RFC3339,
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
}

// ParseLogTime reads a moment of the log's clock, as --from and --to give it.
func ParseLogTime(s string) (time.Time, error) {
	t := strings.Trim(strings.TrimSpace(s), "[]")
	for _, layout := range logTimeLayouts {
		if at, err := time.Parse(layout, t); err == nil {
			return at, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad time %q: want the log's form 10/Oct/2026:13:55:36 +0000 or 2026-10-10T13:55:36Z", s)
}

// visitor names who sent req (see VisitorField).
func (o *Options) visitor(req urls.AccessRequest) string {
	if k := o.VisitorField; k > 0 && k <= len(req.Extra) {
		if v := req.Extra[k-1]; v != "" && v != "-" {
			return "field " + v
		}
	}
	return req.Client + " " + req.Agent
}
