package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
)

// replayStart is the first second of the generated logs.
var replayStart = time.Date(2026, 10, 10, 13, 55, 0, 0, time.UTC)

// logLine is a combined-format line sec seconds after replayStart.
func logLine(sec int, client, agent, target string) string {
	at := replayStart.Add(time.Duration(sec) * time.Second).Format("02/Jan/2006:15:04:05 -0700")
	return fmt.Sprintf(`%s - - [%s] "GET %s HTTP/1.1" 200 100 "-" "%s"`, client, at, target, agent)
}

// writeReplayLog writes lines to a log in a temporary folder.
func writeReplayLog(t *testing.T, lines []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "access.log")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// arrival is a request as a recorder saw it come.
type arrival struct {
	at   time.Time
	path string
	seq  int // the query's seq, the line's place in the log
}

// recorder is a loopback site that keeps every request's arrival, after an optional fixed delay
// in answering.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	list []arrival
}

func newRecorder(t *testing.T, delay time.Duration, handle func(w http.ResponseWriter, r *http.Request)) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seq, _ := strconv.Atoi(r.URL.Query().Get("seq"))
		rec.mu.Lock()
		rec.list = append(rec.list, arrival{at: time.Now(), path: r.URL.Path, seq: seq})
		rec.mu.Unlock()
		time.Sleep(delay)
		if handle != nil {
			handle(w, r)
		}
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) arrivals() []arrival {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.list)
}

// readReport reads a JSON result from stdout.
func readReport(t *testing.T, stdout string) stats.Report {
	t.Helper()
	var rep stats.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	return rep
}

// A log of two bursts of 30 requests, 5 seconds apart, arrives with its shape: every request
// once, the first burst's before the second's, the longest pause between arrivals between
// the bursts, and no arrival in the windows inside the gap (windows as wide as one logged
// second at the speed, counted from the first arrival).
func TestReplayKeepsTheLogsShape(t *testing.T) {
	t.Parallel()
	const burst, gap = 30, 5
	var lines []string
	for i := range 2 * burst {
		sec := 0
		if i >= burst {
			sec = gap
		}
		lines = append(lines, logLine(sec, fmt.Sprintf("10.0.0.%d", i%10), "Mozilla/5.0", fmt.Sprintf("/p%d?seq=%d", i%3, i)))
	}
	log := writeReplayLog(t, lines)
	for _, speed := range []float64{10, 1} {
		t.Run(fmt.Sprintf("%gx", speed), func(t *testing.T) {
			t.Parallel()
			if speed == 1 {
				testtier.Slow(t)
			}
			site := newRecorder(t, 0, nil)
			stdout, stderr, code := webload(t, nil, "replay", "-j", log, "--site", site.URL, "--speed", fmt.Sprint(speed))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			rep := readReport(t, stdout)
			got := site.arrivals()
			if len(got) != 2*burst || rep.Replay == nil || rep.Replay.Planned != 2*burst || rep.Replay.Sent != 2*burst || rep.Replay.Unsent != 0 {
				t.Fatalf("%d arrivals, replay %+v; want %d planned, sent and arrived", len(got), rep.Replay, 2*burst)
			}
			wantPlanned := []int64{2 * burst} // the default 1 s timeline: both bursts in its first second
			if speed == 1 {
				wantPlanned = []int64{burst, 0, 0, 0, 0, burst}
			}
			if !slices.Equal(rep.Replay.PlannedTimeline, wantPlanned) {
				t.Errorf("planned timeline %v, want %v", rep.Replay.PlannedTimeline, wantPlanned)
			}
			seen := map[int]bool{}
			longest, before := time.Duration(0), -1
			for i, a := range got {
				seen[a.seq] = true
				if i > 0 && a.at.Sub(got[i-1].at) > longest {
					longest, before = a.at.Sub(got[i-1].at), i
				}
			}
			if len(seen) != 2*burst {
				t.Errorf("%d distinct requests arrived, want %d", len(seen), 2*burst)
			}
			bursts := make([]int, len(got))
			for i, a := range got {
				bursts[i] = a.seq / burst
			}
			if !slices.IsSorted(bursts) {
				t.Errorf("bursts arrived in the order %v, want the first's before the second's", bursts)
			}
			if before != burst {
				t.Errorf("longest pause before arrival %d, want before %d (the second burst's first)", before, burst)
			}
			window := time.Duration(float64(time.Second) / speed)
			counts := make([]int, gap+1)
			for _, a := range got {
				if w := int(a.at.Sub(got[0].at) / window); w < len(counts) {
					counts[w]++
				}
			}
			for w := 2; w < gap-1; w++ { // inside the gap, a window away from either burst
				if counts[w] != 0 {
					t.Errorf("arrivals per window %v: window %d is in the log's gap", counts, w)
				}
			}
			t.Logf("arrivals per window of %v: %v; lateness p50 %.3f ms, p99 %.3f ms", window, counts,
				rep.Replay.LatenessP50*1000, rep.Replay.LatenessP99*1000)
		})
	}
}

// Each visitor (address and user agent) keeps its own cookies, even when one user serves them

// cookieSite records arrivals and sets a cookie "who" at /set?who=X; any other path checks
// that the request carries who=its own ?who, and keeps each one that does not.
type cookieSite struct {
	*recorder
	mu     sync.Mutex
	wrongs []string
}

func newCookieSite(t *testing.T) *cookieSite {
	t.Helper()
	c := &cookieSite{}
	c.recorder = newRecorder(t, 0, func(w http.ResponseWriter, r *http.Request) {
		who := r.URL.Query().Get("who")
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "who", Value: who, Path: "/"})
			return
		}
		got := ""
		if ck, err := r.Cookie("who"); err == nil {
			got = ck.Value
		}
		if got != who {
			c.mu.Lock()
			c.wrongs = append(c.wrongs, fmt.Sprintf("%s sent %q", who, got))
			c.mu.Unlock()
		}
	})
	return c
}

// wrong are the requests that carried another's cookie or none.
func (c *cookieSite) wrong() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.wrongs)
}

// forget starts a new run's count of wrong cookies.
func (c *cookieSite) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wrongs = nil
}

// all by turns.
func TestReplayVisitorsKeepTheirCookies(t *testing.T) {
	t.Parallel()
	site := newCookieSite(t)
	lines := []string{
		logLine(0, "10.0.0.1", "Agent A", "/set?who=a"),
		logLine(0, "10.0.0.1", "Agent B", "/set?who=b"),
		logLine(0, "10.0.0.2", "Agent A", "/set?who=c"),
	}
	for sec := 1; sec <= 3; sec++ {
		lines = append(lines,
			logLine(sec, "10.0.0.2", "Agent A", "/check?who=c"),
			logLine(sec, "10.0.0.1", "Agent B", "/check?who=b"),
			logLine(sec, "10.0.0.1", "Agent A", "/check?who=a"),
			logLine(sec, "10.0.0.3", "Agent A", "/check?who="))
	}
	log := writeReplayLog(t, lines)
	_, stderr, code := webload(t, nil, "replay", "-q", log, "--site", site.URL, "--speed", "20", "--max-users", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := len(site.arrivals()); n != len(lines) {
		t.Fatalf("%d arrivals, want %d", n, len(lines))
	}
	if wrong := site.wrong(); len(wrong) > 0 {
		t.Errorf("visitors sent another's cookie or none: %q", wrong)
	}
}

// --visitor-field names visitors by a field the log format adds (a session cookie): two
// visitors behind one proxy, with one address and one user agent, keep their cookies apart; a
// line that logged none ("-") is its address and agent's.
func TestReplayVisitorField(t *testing.T) {
	t.Parallel()
	site := newCookieSite(t)
	behindProxy := func(sec int, sid, path string) string {
		return logLine(sec, "10.9.9.9", "Mozilla/5.0", path) + ` "` + sid + `" 0.004`
	}
	lines := []string{behindProxy(0, "s1", "/set?who=a"), behindProxy(0, "s2", "/set?who=b"), behindProxy(0, "-", "/set?who=p")}
	for sec := 1; sec <= 3; sec++ {
		lines = append(lines, behindProxy(sec, "s2", "/check?who=b"), behindProxy(sec, "s1", "/check?who=a"),
			behindProxy(sec, "-", "/check?who=p"))
	}
	log := writeReplayLog(t, lines)
	for _, tc := range []struct {
		field string
		apart bool
	}{{"1", true}, {"0", false}} {
		site.forget()
		_, stderr, code := webload(t, nil, "replay", "-q", log, "--site", site.URL, "--speed", "20", "--max-users", "1",
			"--visitor-field", tc.field)
		if code != 0 {
			t.Fatalf("--visitor-field %s: exit %d: %s", tc.field, code, stderr)
		}
		wrong := site.wrong()
		if tc.apart && len(wrong) > 0 {
			t.Errorf("--visitor-field %s: visitors sent another's cookie or none: %q", tc.field, wrong)
		}
		if !tc.apart && len(wrong) == 0 {
			t.Errorf("--visitor-field %s: one address and agent kept three cookies apart", tc.field)
		}
	}
}

// --from and --to keep exactly the lines logged from the one (included) to the other
// (excluded).
func TestReplayFromToCutTheLog(t *testing.T) {
	t.Parallel()
	var lines []string
	for sec := range 10 {
		lines = append(lines, logLine(sec, "10.0.0.1", "Mozilla/5.0", fmt.Sprintf("/s%d", sec)))
	}
	log := writeReplayLog(t, lines)
	site := newRecorder(t, 0, nil)
	stdout, stderr, code := webload(t, nil, "replay", "-j", log, "--site", site.URL, "--speed", "100",
		"--from", "10/Oct/2026:13:55:03 +0000", "--to", "2026-10-10T13:55:07Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var paths []string
	for _, a := range site.arrivals() {
		paths = append(paths, a.path)
	}
	if want := []string{"/s3", "/s4", "/s5", "/s6"}; !slices.Equal(paths, want) {
		t.Errorf("arrived %v, want %v", paths, want)
	}
	r := readReport(t, stdout).Replay
	if r == nil || r.Planned != 4 || r.Skipped["before --from"] != 3 || r.Skipped["from --to on"] != 3 || r.Lines != 10 {
		t.Errorf("replay section %+v", r)
	}
}

// A server slower than the log (a fixed delay, two users for twenty visitors in a second) makes
// the replay fall behind: the dispatcher's lateness, requests that waited for a user, and
// response times counted from the due time, so they include the wait; with -t cutting the
// run, the requests due and not sent are unsent, and none is lost.
func TestReplayShowsASlowServer(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	const delay, n = 200 * time.Millisecond, 20
	var lines []string
	for i := range n {
		lines = append(lines, logLine(0, fmt.Sprintf("10.0.1.%d", i), "Mozilla/5.0", fmt.Sprintf("/p?seq=%d", i)))
	}
	log := writeReplayLog(t, lines)
	t.Run("to the end", func(t *testing.T) {
		t.Parallel()
		site := newRecorder(t, delay, nil)
		stdout, stderr, code := webload(t, nil, "replay", "-j", log, "--site", site.URL, "--max-users", "2")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		rep := readReport(t, stdout)
		r, s := rep.Replay, rep.Schedule
		if r.Sent != n || r.Unsent != 0 || s.Delayed == 0 {
			t.Fatalf("replay %+v, schedule %+v: want all sent, some after waiting for a user", r, s)
		}
		// Two users take 200 ms a request: the dispatcher waits a whole answer for a free one.
		if r.LatenessMax < delay.Seconds() {
			t.Errorf("lateness max %.3f s, want at least the server's %v", r.LatenessMax, delay)
		}
		// The last of 20 requests due within 1 s ends no sooner than 10 answers after the start.
		if least := (n/2*delay - time.Second).Seconds(); rep.Percentiles.Max < least {
			t.Errorf("longest response time %.3f s from the due time, want at least %.3f s", rep.Percentiles.Max, least)
		}
	})
	t.Run("cut by -t", func(t *testing.T) {
		t.Parallel()
		site := newRecorder(t, delay, nil)
		stdout, stderr, code := webload(t, nil, "replay", "-j", log, "--site", site.URL, "--max-users", "2", "-t", "1S")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		r := readReport(t, stdout).Replay
		if r.Unsent == 0 || r.Sent+r.Unsent != n {
			t.Errorf("%d sent + %d unsent, want %d with some unsent", r.Sent, r.Unsent, n)
		}
	})
}

// Two replays of one log against two sites are results like any two runs: compare reads them
// URL by URL.
func TestReplaysCompare(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := range 20 {
		lines = append(lines, logLine(i/5, "10.0.0.1", "Mozilla/5.0", fmt.Sprintf("/page/%d", i%4)))
	}
	log := writeReplayLog(t, lines)
	dir := t.TempDir()
	for _, name := range []string{"old", "new"} {
		site := newRecorder(t, 0, nil)
		out := filepath.Join(dir, name+".json")
		if _, stderr, code := webload(t, nil, "replay", "-q", log, "--site", site.URL, "--speed", "50", "-o", out, "--label", name); code != 0 {
			t.Fatalf("replay %s: exit %d: %s", name, code, stderr)
		}
		rep, err := stats.ReadJSON(out)
		if err != nil || rep.Replay == nil || len(rep.URLs) != 4 || rep.Requests != 20 {
			t.Fatalf("%s: %v; replay %+v, %d URLs, %d requests", name, err, rep.Replay, len(rep.URLs), rep.Requests)
		}
	}
	stdout, stderr, code := webload(t, nil, "compare", filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json"))
	if code != 0 || !strings.Contains(stdout, "new") {
		t.Fatalf("compare: exit %d: %s\n%s", code, stderr, stdout)
	}
}

func TestReplayBadInput(t *testing.T) {
	t.Parallel()
	paths := writeReplayLog(t, []string{logLine(0, "10.0.0.1", "A", "/p")})
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no log", []string{"--site", "http://127.0.0.1:9"}, "no log: give one or more access logs"},
		{"bad speed", []string{paths, "--site", "http://127.0.0.1:9", "--speed", "fast"}, `--speed: bad speed "fast"`},
		{"bad from", []string{paths, "--site", "http://127.0.0.1:9", "--from", "noon"}, `--from: bad time "noon"`},
		{"missing log", []string{"/nonexistent/a.log", "--site", "http://127.0.0.1:9"}, "/nonexistent/a.log: no such file or directory"},
		{"paths without site", []string{paths}, paths + ":1: the log has paths only; give --site URL"},
		{"a load flag", []string{paths, "--site", "http://127.0.0.1:9", "-c", "5"}, "--concurrent does not apply to webload replay"},
		{"bad site", []string{paths, "--site", "ftp://x"}, `bad --site "ftp://x"`},
		// The run's flags are checked before a log, maybe long, is read.
		{"bad run flag", []string{"/nonexistent/a.log", "--site", "http://127.0.0.1:9", "--interval", "0"}, "--interval: want a duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, append([]string{"replay"}, tt.args...)...)
			if code == 0 || !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, stderr %q; want a one-line error containing %q", code, stderr, tt.want)
			}
		})
	}
}

// Shards deal out the log's visitors; merged, their results are the whole replay's: every
// request planned and sent once.
func TestReplayShardsMerge(t *testing.T) {
	t.Parallel()
	const n = 60
	var lines []string
	for i := range n {
		lines = append(lines, logLine(i/20, fmt.Sprintf("10.0.0.%d", i%9), "Mozilla/5.0", fmt.Sprintf("/p%d?seq=%d", i%4, i)))
	}
	log := writeReplayLog(t, lines)
	site := newRecorder(t, 0, nil)
	dir := t.TempDir()
	var files []string
	var planned int64
	for shard := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("shard%d.json", shard))
		if _, stderr, code := webload(t, nil, "replay", "-q", log, "--site", site.URL, "--speed", "20", "--shard", fmt.Sprintf("%d/2", shard), "-o", out); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", shard, code, stderr)
		}
		rep, err := stats.ReadJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		if p := rep.Replay.Planned; p == 0 || p == n {
			t.Errorf("shard %d planned %d of %d: want a share", shard, p, n)
		}
		planned += rep.Replay.Planned
		files = append(files, out)
	}
	rep := mergeShards(t, dir, files)
	if r := rep.Replay; planned != n || r == nil || r.Planned != n || r.Sent != n || r.Dispatched != n || rep.Requests != n {
		t.Errorf("shards planned %d; merged replay %+v, %d requests; want %d", planned, rep.Replay, rep.Requests, n)
	}
	seen := map[int]int{}
	for _, a := range site.arrivals() {
		seen[a.seq]++
	}
	if len(seen) != n {
		t.Errorf("%d distinct requests arrived, want %d", len(seen), n)
	}
	for seq, k := range seen {
		if k != 1 {
			t.Errorf("request %d arrived %d times", seq, k)
		}
	}
}
