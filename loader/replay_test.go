package loader

import (
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// listSchedule is a Schedule of a fixed list, keeping the lateness it is told.
type listSchedule struct {
	list []Arrival
	next int
	late []time.Duration
}

func (s *listSchedule) Next() (Arrival, bool) {
	if s.next >= len(s.list) {
		return Arrival{}, false
	}
	s.next++
	return s.list[s.next-1], true
}

func (s *listSchedule) Dispatched(late time.Duration) { s.late = append(s.late, late) }

// runScheduled runs targets with s as the schedule.
func runScheduled(t *testing.T, cfg Config, targets []urls.Target, s Schedule) ([]Result, Outcome) {
	t.Helper()
	if cfg.Rate == 0 {
		cfg.Rate = 1 // describes the schedule only
	}
	cfg.Timeout = 30 * time.Second
	l, err := New(cfg, targets)
	if err != nil {
		t.Fatal(err)
	}
	l.SetSchedule(s)
	var c collect
	out := l.Run(t.Context(), &c)
	// A visit's page result (a visitor keeps cookies) repeats its request's figures.
	return slices.DeleteFunc(c.results, func(r Result) bool { return r.Kind == KindPage }), out
}

// targetsOf parses URLs into targets.
func targetsOf(t *testing.T, list ...string) []urls.Target {
	t.Helper()
	var out []urls.Target
	for _, u := range list {
		tg, err := urls.ParseLine(u, urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tg)
	}
	return out
}

func TestScheduleSendsEveryArrivalInItsVisitorsOrder(t *testing.T) {
	t.Parallel()
	for _, cookies := range []bool{true, false} { // a visitor, or plain requests
		t.Run(map[bool]string{true: "cookies", false: "plain"}[cookies], func(t *testing.T) {
			t.Parallel()
			testScheduleOrder(t, cookies)
		})
	}
}

func testScheduleOrder(t *testing.T, cookies bool) {
	var mu sync.Mutex
	seen := map[string][]string{} // by visitor (a header the test cannot set: the query names it)
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Query().Get("v")] = append(seen[r.URL.Query().Get("v")], r.URL.Path)
		mu.Unlock()
	})
	targets := targetsOf(t, site.URL+"/1?v=a", site.URL+"/2?v=a", site.URL+"/3?v=a", site.URL+"/1?v=b", site.URL+"/2?v=b")
	s := &listSchedule{list: []Arrival{
		{Due: 0, Target: 0, Visitor: "a"}, {Due: 0, Target: 3, Visitor: "b"}, {Due: 0, Target: 1, Visitor: "a"},
		{Due: 5 * time.Millisecond, Target: 4, Visitor: "b"}, {Due: 10 * time.Millisecond, Target: 2, Visitor: "a"},
	}}
	results, out := runScheduled(t, Config{MaxUsers: 4, Cookies: cookies}, targets, s)
	if out.Stop != Completed || out.Unsent != 0 || len(results) != 5 || len(s.late) != 5 {
		t.Fatalf("stop %v, %d unsent, %d results, %d dispatched; want 5 sent", out.Stop, out.Unsent, len(results), len(s.late))
	}
	if !slices.Equal(seen["a"], []string{"/1", "/2", "/3"}) || !slices.Equal(seen["b"], []string{"/1", "/2"}) {
		t.Errorf("visitors' requests %v, want each visitor's in its order", seen)
	}
	for _, r := range results {
		if !r.Arrival || r.Intended != s.list[slices.IndexFunc(s.list, func(a Arrival) bool { return a.Target == int(r.Target) })].Due {
			t.Errorf("result %+v: want an arrival intended at its due time", r)
		}
	}
}

// One user serves two visitors by turns: each keeps its own cookies, which live with the
// visitor, not with the user.
func TestScheduleKeepsVisitorsCookiesApart(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var wrong []string
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		who := r.URL.Query().Get("who")
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "who", Value: who})
			return
		}
		if c, err := r.Cookie("who"); err != nil || c.Value != who {
			mu.Lock()
			wrong = append(wrong, who+" sent "+r.Header.Get("Cookie"))
			mu.Unlock()
		}
	})
	targets := targetsOf(t, site.URL+"/set?who=a", site.URL+"/set?who=b", site.URL+"/check?who=a", site.URL+"/check?who=b")
	var list []Arrival
	for i := range 4 { // a sets, b sets, then each checks twice, by turns
		list = append(list, Arrival{Due: time.Duration(i) * time.Millisecond, Target: min(i, 2+i%2), Visitor: string(rune('a' + i%2))})
	}
	list = append(list, Arrival{Due: 4 * time.Millisecond, Target: 2, Visitor: "a"}, Arrival{Due: 5 * time.Millisecond, Target: 3, Visitor: "b"})
	tests := []struct {
		name     string
		maxUsers int
	}{{"one user for both", 1}, {"a user each", 2}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results, out := runScheduled(t, Config{MaxUsers: tt.maxUsers, Cookies: true}, targets, &listSchedule{list: list})
			if out.Unsent != 0 || len(results) != len(list) {
				t.Fatalf("%d unsent, %d results; want %d sent", out.Unsent, len(results), len(list))
			}
		})
	}
	if site.count("GET /check?who=a") != 4 || site.count("GET /check?who=b") != 4 {
		t.Fatalf("checks %v", site.snapshot())
	}
	if len(wrong) > 0 {
		t.Errorf("visitors sent another's cookies or none: %q", wrong)
	}
}

// A request due while its visitor is still waiting for an answer waits for it, and the wait
// counts: its response time runs from its due time.
func TestScheduleRequestWaitsForItsBusyVisitor(t *testing.T) {
	t.Parallel()
	const delay = 40 * time.Millisecond
	var mu sync.Mutex
	inFlight, most := 0, 0
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(delay)
		mu.Lock()
		inFlight--
		mu.Unlock()
	})
	targets := targetsOf(t, site.URL+"/p")
	s := &listSchedule{list: []Arrival{{Target: 0, Visitor: "v"}, {Target: 0, Visitor: "v"}, {Target: 0, Visitor: "v"}}}
	results, out := runScheduled(t, Config{MaxUsers: 10, Cookies: true}, targets, s)
	if out.Unsent != 0 || len(results) != 3 || out.Users != 1 {
		t.Fatalf("%d unsent, %d results, %d users; want 3 sent by 1 user", out.Unsent, len(results), out.Users)
	}
	if most != 1 {
		t.Errorf("%d requests of one visitor in flight at once, want 1", most)
	}
	slices.SortFunc(results, func(a, b Result) int { return int(a.Start - b.Start) })
	for i, r := range results {
		if r.Queued != (i > 0) {
			t.Errorf("request %d queued %v", i, r.Queued)
		}
		// From the due time (0): the server's fixed delay for each request before it, and its own.
		if got := r.Latency + r.Start - r.Intended; got < time.Duration(i+1)*delay {
			t.Errorf("request %d: %v from its due time, want at least %v", i, got, time.Duration(i+1)*delay)
		}
	}
}

// When the run stops (here its time) with arrivals due and not sent, they are unsent: every
// arrival due before the stop is sent or unsent, none lost.
func TestScheduleCountsUnsentAtStop(t *testing.T) {
	t.Parallel()
	const delay = 100 * time.Millisecond
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) { time.Sleep(delay) })
	targets := targetsOf(t, site.URL+"/p")
	var list []Arrival
	for i := range 40 {
		// Half from one visitor, which queues behind itself; half from visitors that queue for
		// the one user. All are due before the stop.
		v := "same"
		if i%2 == 1 {
			v = string(rune('A' + i))
		}
		list = append(list, Arrival{Due: time.Duration(i) * time.Millisecond, Target: 0, Visitor: v})
	}
	// Arrivals after the stop are not due: neither sent nor unsent.
	list = append(list, Arrival{Due: time.Hour, Target: 0, Visitor: "late"})
	results, out := runScheduled(t, Config{MaxUsers: 1, Cookies: true, Duration: 250 * time.Millisecond}, targets, &listSchedule{list: list})
	if out.Stop != TimeUp {
		t.Fatalf("stop %v, want time", out.Stop)
	}
	sent := int64(len(results))
	if out.Unsent == 0 || sent+out.Unsent != 40 {
		t.Errorf("%d sent + %d unsent, want 40 with some unsent", sent, out.Unsent)
	}
}

// Idle visitors keep their state, the most recently active first, up to the bound: an older one
// comes back as a new visitor, so memory does not grow with a log's visitors.
func TestGuestsKeepTheRecentIdleOnes(t *testing.T) {
	t.Parallel()
	gs := newGuests(2)
	unbind := func(*guest) {}
	first := map[string]*guest{}
	for _, key := range []string{"a", "b", "c"} {
		g, fresh := gs.take(key)
		if !fresh {
			t.Fatalf("%s: not fresh at first", key)
		}
		first[key] = g
		if again, fresh := gs.take(key); fresh || again != g {
			t.Fatalf("%s: a second arrival while busy is not queued on the same visitor", key)
		}
		if gs.served(g, unbind) || !gs.served(g, unbind) {
			t.Fatalf("%s: idle before its last arrival was served, or not after", key)
		}
	}
	for _, tt := range []struct {
		key  string
		kept bool
	}{{"b", true}, {"c", true}, {"a", false}} {
		g, fresh := gs.take(tt.key)
		if !fresh || (g == first[tt.key]) != tt.kept {
			t.Errorf("%s: fresh %v, same visitor %v; want kept %v", tt.key, fresh, g == first[tt.key], tt.kept)
		}
	}
}
