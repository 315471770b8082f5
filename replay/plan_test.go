package replay

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/urls"
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
	if want := []int64{2, 0, 0, 2}; !slices.Equal(p.Timeline(10), want) {
		t.Errorf("timeline %v, want %v", p.Timeline(10), want)
	}
	if want := []int64{2}; !slices.Equal(p.Timeline(3), want) {
		t.Errorf("timeline of 3 intervals %v, want %v", p.Timeline(3), want)
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

// Shards list the whole log's URLs, so that their results merge URL by URL, and each plans its
// own visitors' requests.
func TestPlanShardsShareTheURLs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var lines []any
	for i := range 50 {
		lines = append(lines, line{sec: i / 10, client: "10.0.0." + string(rune('0'+i%10)), path: "/p" + string(rune('a'+i%26))})
	}
	log := writeLog(t, dir, "a.log", false, lines...)
	whole, err := NewPlan(opts(log))
	if err != nil {
		t.Fatal(err)
	}
	var planned int64
	for shard := range 2 {
		o := opts(log)
		o.Shard, o.Shards = shard, 2
		p, err := NewPlan(o)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(p.Targets, whole.Targets, func(a, b urls.Target) bool { return a.URL == b.URL && a.Method == b.Method }) {
			t.Errorf("shard %d lists %d URLs, the whole log %d", shard, len(p.Targets), len(whole.Targets))
		}
		planned += p.Counts.Planned
	}
	if planned != whole.Counts.Planned {
		t.Errorf("shards plan %d requests, the whole log %d", planned, whole.Counts.Planned)
	}
}
