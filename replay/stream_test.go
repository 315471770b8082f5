package replay

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestStreamMergesLogsByTime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := writeLog(t, dir, "a.log", false,
		line{sec: 0, client: "10.0.0.1", path: "/a0"},
		line{sec: 2, client: "10.0.0.1", path: "/a2"},
		line{sec: 5, client: "10.0.0.1", path: "/a5"})
	b := writeLog(t, dir, "b.log.gz", true,
		line{sec: 1, client: "10.0.0.2", path: "/b1"},
		line{sec: 2, client: "10.0.0.2", path: "/b2"},
		line{sec: 3, client: "10.0.0.2", path: "/b3"})
	s, err := Open(opts(a, b))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for _, e := range drain(t, s) {
		got = append(got, strings.TrimPrefix(e.URL, site))
	}
	want := []string{"/a0", "/b1", "/a2", "/b2", "/b3", "/a5"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestStreamDueTimes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Two requests in second 0, one in second 1, one in second 4.
	log := writeLog(t, dir, "a.log", false,
		line{sec: 0, client: "c", path: "/1"}, line{sec: 0, client: "c", path: "/2"},
		line{sec: 1, client: "c", path: "/3"}, line{sec: 4, client: "c", path: "/4"})
	tests := []struct {
		name  string
		speed float64
		want  []time.Duration
	}{
		{"1x", 1, []time.Duration{0, 500 * time.Millisecond, time.Second, 4 * time.Second}},
		{"2x", 2, []time.Duration{0, 250 * time.Millisecond, 500 * time.Millisecond, 2 * time.Second}},
		{"10x", 10, []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 400 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := opts(log)
			o.Speed = tt.speed
			s, err := Open(o)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var got []time.Duration
			for _, e := range drain(t, s) {
				got = append(got, e.Due)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("due %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStreamWindowCutsExactly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var lines []any
	for sec := range 10 {
		lines = append(lines, line{sec: sec, client: "c", path: "/s" + string(rune('0'+sec))})
	}
	log := writeLog(t, dir, "a.log", false, lines...)
	o := opts(log)
	o.From, o.To = logStart.Add(3*time.Second), logStart.Add(7*time.Second)
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	events := drain(t, s)
	for _, e := range events {
		got = append(got, strings.TrimPrefix(e.URL, site))
	}
	if want := []string{"/s3", "/s4", "/s5", "/s6"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	if events[0].Due != 0 {
		t.Errorf("first due %v: the window's first request starts the replay", events[0].Due)
	}
	c := s.Counts()
	if c.Skipped[skipBeforeFrom] != 3 || c.Skipped[skipAfterTo] != 3 || c.Planned != 4 {
		t.Errorf("counts %+v, want 3 before, 3 after, 4 planned", c)
	}
}

func TestStreamCountsAndSamplesUnparsedLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := writeLog(t, dir, "a.log", false,
		line{sec: 0, client: "c", path: "/ok"},
		"garbage",
		line{sec: 0, client: "c", path: "/style.css"},
		line{sec: 1, client: "c", path: "/post", method: "POST"},
		"",
		line{sec: 1, client: "c", path: "/missing", status: 404},
		`1.2.3.4 - - [10/Oct/2026:13:55:01 +0000] "not-a-request" 200 1 "-" "-"`,
		line{sec: 2, client: "c", path: "/ok2"})
	s, err := Open(opts(log))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := len(drain(t, s)); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	c := s.Counts()
	if c.Lines != 8 || c.Unparsed != 2 {
		t.Errorf("lines %d unparsed %d, want 8 and 2", c.Lines, c.Unparsed)
	}
	want := []string{log + ":2: not an access log line in the common or combined format", log + ":7: no request line"}
	if !slices.Equal(c.Samples, want) {
		t.Errorf("samples %q, want %q", c.Samples, want)
	}
	for reason, n := range map[string]int64{"asset: *.css": 1, "method": 1, "status": 1, "blank": 1} {
		if c.Skipped[reason] != n {
			t.Errorf("skipped %q = %d, want %d (all: %v)", reason, c.Skipped[reason], n, c.Skipped)
		}
	}
}

func TestStreamMethodsAskedFor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := writeLog(t, dir, "a.log", false,
		line{sec: 0, client: "c", path: "/get"},
		line{sec: 0, client: "c", path: "/post", method: "POST"},
		line{sec: 0, client: "c", path: "/delete", method: "DELETE"})
	o := opts(log)
	o.Filter.Methods = []string{"GET", "POST"}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for _, e := range drain(t, s) {
		got = append(got, e.Method)
	}
	if want := []string{"GET", "POST"}; !slices.Equal(got, want) {
		t.Errorf("methods %v, want %v", got, want)
	}
}

func TestStreamSiteReplacesSchemeAndHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := writeLog(t, dir, "a.log", false,
		line{sec: 0, client: "c", path: "/p?q=1"},
		line{sec: 0, client: "c", path: "https://prod.example.com/full"})
	s, err := Open(opts(log))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for _, e := range drain(t, s) {
		got = append(got, e.URL)
	}
	if want := []string{site + "/p?q=1", site + "/full"}; !slices.Equal(got, want) {
		t.Errorf("URLs %v, want %v", got, want)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths := writeLog(t, dir, "paths.log", false, line{sec: 0, client: "c", path: "/p"})
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"no logs", Options{}, "no logs to replay"},
		{"missing file", opts(dir + "/none.log"), dir + "/none.log: no such file or directory"},
		{"paths without site", Options{Logs: []string{paths}}, paths + ":1: the log has paths only; give --site URL"},
		{"window upside down", Options{Logs: []string{paths}, From: logStart, To: logStart}, "is not after --from"},
		{"variable site", Options{Logs: []string{paths}, Filter: urlsBase("$(SITE)")}, "not a variable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Open(tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParseSpeed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"2", 2, true}, {"2x", 2, true}, {"2X", 2, true}, {"200%", 2, true}, {"0.5", 0.5, true},
		{"50%", 0.5, true}, {" 10x ", 10, true},
		{"0", 0, false}, {"-1", 0, false}, {"x", 0, false}, {"", 0, false}, {"inf", 0, false},
		{"NaN", 0, false}, {"2xx", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseSpeed(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseSpeed(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestParseLogTime(t *testing.T) {
	t.Parallel()
	want := time.Date(2026, 10, 10, 13, 55, 36, 0, time.UTC)
	for _, in := range []string{"10/Oct/2026:13:55:36 +0000", "[10/Oct/2026:15:55:36 +0200]", "2026-10-10T13:55:36Z", "2026-10-10T13:55:36", "2026-10-10 13:55:36"} {
		got, err := ParseLogTime(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseLogTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseLogTime("yesterday"); err == nil {
		t.Error("ParseLogTime(yesterday) took it")
	}
}

// Shards deal out visitors: together they replay every request once, each visitor's all in
// one shard, each at the moment the whole replay sends it.
func TestStreamShardsDealOutVisitors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var lines []any
	for i := range 200 {
		lines = append(lines, line{sec: i / 30, client: fmt.Sprintf("10.0.0.%d", i%17), agent: fmt.Sprintf("UA %d", i%3), path: fmt.Sprintf("/p?i=%d", i)})
	}
	log := writeLog(t, dir, "a.log", false, lines...)
	whole := map[string]Event{}
	s, err := Open(opts(log))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range drain(t, s) {
		whole[e.URL] = e
	}
	s.Close()
	const shards = 3
	got := map[string]bool{}
	shardOf := map[string]int{}
	for shard := range shards {
		o := opts(log)
		o.Shard, o.Shards = shard, shards
		s, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		events := drain(t, s)
		if s.Counts().Planned != int64(len(events)) || len(events) == 0 {
			t.Errorf("shard %d: %d planned, %d events", shard, s.Counts().Planned, len(events))
		}
		for _, e := range events {
			if got[e.URL] {
				t.Errorf("%s in two shards", e.URL)
			}
			got[e.URL] = true
			if w := whole[e.URL]; w.Due != e.Due || w.Visitor != e.Visitor {
				t.Errorf("%s: due %v by %q in shard %d, %v by %q in the whole replay", e.URL, e.Due, e.Visitor, shard, w.Due, w.Visitor)
			}
			if prev, ok := shardOf[e.Visitor]; ok && prev != shard {
				t.Errorf("visitor %q in shards %d and %d", e.Visitor, prev, shard)
			}
			shardOf[e.Visitor] = shard
		}
		s.Close()
	}
	if len(got) != len(whole) {
		t.Errorf("shards replayed %d requests, the whole %d", len(got), len(whole))
	}
}
