package replay

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPlanTargetsAndSpan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := writeLog(t, dir, "a.log", false,
		line{sec: 0, client: "c", path: "/a"},
		line{sec: 0, client: "d", path: "/b"},
		line{sec: 3, client: "c", path: "/a"},
		line{sec: 3, client: "c", path: "/a", method: "HEAD"},
		"junk")
	o := opts(log)
	o.Speed, o.Interval = 2, 500*time.Millisecond
	p, err := NewPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range p.Targets {
		got = append(got, tg.Method+" "+strings.TrimPrefix(tg.URL, site)+" "+strings.TrimPrefix(tg.Source, log))
	}
	if want := "GET /a :1,GET /b :2,HEAD /a :4"; strings.Join(got, ",") != want {
		t.Errorf("targets %q, want %q", strings.Join(got, ","), want)
	}
	if p.Counts.Planned != 4 || p.Counts.Unparsed != 1 {
		t.Errorf("counts %+v", p.Counts)
	}
	if p.Span() != 2*time.Second {
		t.Errorf("span %v, want 2s (4 logged seconds at 2x)", p.Span())
	}
	// Due at 0, 0.25 s (the second request of second 0), 1.5 s and 1.75 s.
	if want := []int64{2, 0, 0, 2}; !slices.Equal(p.Timeline, want) {
		t.Errorf("timeline %v, want %v", p.Timeline, want)
	}
	if p.Rate() != 2 {
		t.Errorf("rate %v, want 2/s", p.Rate())
	}
}

func TestPlanWithoutRequestsSaysWhy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := writeLog(t, dir, "a.log", false, "junk", line{sec: 0, client: "c", path: "/x.png"})
	_, err := NewPlan(opts(log))
	want := "no requests to replay in " + log + " (2 lines read; left out: unparsable 1, asset: *.png 1)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
