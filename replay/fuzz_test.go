package replay

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Any log (odd times, years, zones, out of order, junk, binary), at any speed a flag takes,
// plans without panicking, or fails with an error naming the log; a plan's due times never go
// back, stay within what a run can last, and its counts add up: every line read is planned,
// left out for a reason or unparsable.
func FuzzPlan(f *testing.F) {
	l := func(at string) string {
		return `10.0.0.1 - - [` + at + `] "GET /a HTTP/1.1" 200 5 "-" "Mozilla/5.0"` + "\n"
	}
	f.Add(l("10/Oct/2026:13:55:00 +0000")+l("10/Oct/2026:13:55:00 +0000")+l("10/Oct/2026:13:54:00 +0000"), 1.0, int64(1))
	f.Add(l("10/Oct/0000:00:00:00 +0000")+l("10/Oct/9999:13:55:00 -1200"), 1.0, int64(1))
	f.Add(l("10/Oct/2026:13:55:00 +1400")+"junk\n\x00\xff\n"+l("31/Feb/2026:13:55:00 +0000"), 1e-300, int64(1000))
	f.Add(l("10/Oct/2026:13:55:00 +0000")+l("12/Oct/2026:13:55:00 +0000"), 1e300, int64(0))
	f.Fuzz(func(t *testing.T, log string, speed float64, intervalMs int64) {
		if !(speed > 0) || speed > 1e308 || intervalMs < 0 || intervalMs > 1e9 {
			return // ParseSpeed and --interval refuse these
		}
		path := filepath.Join(t.TempDir(), "a.log")
		if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		o := opts(path)
		o.Speed, o.Interval = speed, time.Duration(intervalMs)*time.Millisecond
		p, err := NewPlan(o)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, path+":") && !strings.HasPrefix(msg, "no requests to replay in "+path) {
				t.Fatalf("error %q names no log", msg)
			}
			return
		}
		c := p.Counts
		var skipped int64
		for _, n := range c.Skipped {
			skipped += n
		}
		if c.Planned+c.Unparsed+skipped != c.Lines {
			t.Fatalf("%d lines read, %d planned + %d unparsable + %d left out", c.Lines, c.Planned, c.Unparsed, skipped)
		}
		if span := p.Span(); span < 0 {
			t.Fatalf("span %v", span)
		}
		if r := p.Rate(); !(r > 0) || r > math.MaxFloat64 {
			t.Fatalf("rate %v", r)
		}
		s, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var last time.Duration
		for {
			e, ok := s.Next()
			if !ok {
				break
			}
			if e.Due < last {
				t.Fatalf("due %v after %v", e.Due, last)
			}
			last = e.Due
		}
	})
}
