package judge

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"
)

// search is a capacity search's outcome as the searcher sums it up: 400 passes, 420 breaks
// p95 and 800 ended early on its errors.
func search() *stats.Capacity {
	return &stats.Capacity{Rate: 400, SLO: []string{"p95<100ms", "error_rate<1"}, Steps: []stats.CapacityStep{
		{Rate: 200, TransactionRate: 199.5, P95: 0.021, Passed: true},
		{Rate: 400, TransactionRate: 398.25, P95: 0.0456, Passed: true},
		{Rate: 800, TransactionRate: 401, P95: 1.5, ErrorRate: 12.5, EndedEarly: true, Broke: "error_rate 12.500 %"},
		{Rate: 600, TransactionRate: 400, P95: 0.9, Broke: "p95 900.000 ms"},
		{Rate: 420, TransactionRate: 399, P95: 0.112345, Broke: "p95 112.345 ms"},
	}}
}

func TestCapacityText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cap  *stats.Capacity
		want string
	}{
		{name: "found", cap: search(),
			want: "Capacity: 400 req/s (p95 45.600 ms, errors 0.000 % at that rate, measured once; next step 420 req/s failed: p95 112.345 ms)"},
		{name: "capped", cap: &stats.Capacity{Rate: 1000, Capped: true, Steps: []stats.CapacityStep{{Rate: 1000, P95: 0.01, Passed: true}}},
			want: "Capacity: at least 1000 req/s (p95 10.000 ms, errors 0.000 % at that rate, measured once; the highest rate allowed (--to))"},
		{name: "none", cap: &stats.Capacity{Steps: []stats.CapacityStep{{Rate: 10, Broke: "p95 2000.000 ms"}, {Rate: 5, Broke: "p95 1500.000 ms"}}},
			want: "Capacity: none found: even 5 req/s failed (p95 1500.000 ms)"},
		{name: "none judged", cap: &stats.Capacity{Steps: []stats.CapacityStep{{Rate: 10, Inconclusive: "10 transactions, p95 needs 20"},
			{Rate: 20, Inconclusive: "19 transactions, p95 needs 20"}}},
			want: "Capacity: none found: no step could be judged (at 20 req/s, 19 transactions, p95 needs 20)"},
		{name: "failed above the rates judged", cap: &stats.Capacity{Steps: []stats.CapacityStep{{Rate: 10, Inconclusive: "10 transactions, p95 needs 20"},
			{Rate: 20, Broke: "p95 900.000 ms"}, {Rate: 15, Inconclusive: "15 transactions, p95 needs 20"}}},
			want: "Capacity: none found: 20 req/s failed (p95 900.000 ms), and the rates below could not be judged (at 15 req/s, 15 transactions, p95 needs 20)"},
		{name: "interrupted", cap: &stats.Capacity{Rate: 40, StopReason: stats.StopInterrupted, InterruptedAt: 80,
			Steps: []stats.CapacityStep{{Rate: 40, P95: 0.01, Passed: true}, {Rate: 80, Partial: true}}},
			want: "Capacity: at least 40 req/s (p95 10.000 ms, errors 0.000 % at that rate, measured once; search interrupted at 80 req/s)"},
		{name: "interrupted before a pass", cap: &stats.Capacity{StopReason: stats.StopInterrupted, InterruptedAt: 10, Steps: []stats.CapacityStep{{Rate: 10, Partial: true}}},
			want: "Capacity: none found: search interrupted at 10 req/s before a step passed"},
		{name: "confirmed", cap: &stats.Capacity{Rate: 400, Steps: []stats.CapacityStep{{Rate: 400, P95: 0.04, Passed: true},
			{Rate: 420, Broke: "p95 600.000 ms"}, {Rate: 420, Broke: "p95 612.000 ms", Again: true}, {Rate: 400, P95: 0.05, Passed: true, Again: true}}},
			want: "Capacity: 400 req/s (p95 50.000 ms, errors 0.000 % at that rate, confirmed by a second measurement; next step 420 req/s failed twice: p95 612.000 ms)"},
		{name: "noise, then a capacity that does not hold", cap: &stats.Capacity{Rate: 380, Steps: []stats.CapacityStep{
			{Rate: 380, Broke: "p95 900.000 ms"}, {Rate: 380, P95: 0.1, Passed: true, Again: true},
			{Rate: 400, P95: 0.2, Passed: true}, {Rate: 420, Broke: "p95 600.000 ms"}, {Rate: 420, Broke: "p95 600.000 ms", Again: true},
			{Rate: 400, Broke: "p95 550.000 ms", Again: true}}},
			want: "Capacity: 380 req/s (p95 100.000 ms, errors 0.000 % at that rate, passed when measured again after a failure; next step 400 req/s failed: p95 550.000 ms)"},
		{name: "steps ran out before a failure", cap: &stats.Capacity{Rate: 437.5, Steps: []stats.CapacityStep{{Rate: 437.5, P95: 0.05, Passed: true}}},
			want: "Capacity: at least 437.5 req/s (p95 50.000 ms, errors 0.000 % at that rate, measured once; no higher rate failed before --max-steps ran out)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.cap.Summary(); got != tc.want {
				t.Fatalf("Summary()\n got %q\nwant %q", got, tc.want)
			}
		})
	}
	var b bytes.Buffer
	if err := stats.WriteCapacity(&b, search()); err != nil {
		t.Fatal(err)
	}
	if got := (stats.CapacityStep{Rate: 10, Inconclusive: "10 transactions, p95 needs 20"}).Line(); !strings.HasSuffix(got, "%  INCONCLUSIVE: 10 transactions, p95 needs 20") {
		t.Fatalf("an inconclusive step's line: %q", got)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 6 || !strings.HasSuffix(lines[0], "passed") || !strings.HasSuffix(lines[2], "FAILED, ended early: error_rate 12.500 %") ||
		!strings.Contains(lines[1], "      400 req/s:     398.25 trans/sec, p95     45.600 ms, errors   0.000 %") {
		t.Fatalf("WriteCapacity:\n%s", b.String())
	}
}

func TestNewCapacityStepNamesTheBrokenGate(t *testing.T) {
	t.Parallel()
	rep := &stats.Report{Transactions: 190, FailedTransactions: 10, TransactionRate: 100, Percentiles: stats.Percentiles{P95: 0.25}}
	var gates []gate.Gate
	for _, e := range []string{"p95<500ms", "error_rate<1"} {
		g, err := gate.ParseGate(e)
		if err != nil {
			t.Fatal(err)
		}
		gates = append(gates, g)
	}
	s := stats.NewCapacityStep(100, rep, gate.CheckGates(rep, gates), stats.StepOutcome{})
	if s.Broke != "error_rate 5.000 %" || s.ErrorRate != 5 || s.P95 != 0.25 || s.TransactionRate != 100 {
		t.Fatalf("step %+v", s)
	}
	// 262 transactions of a 2 s step that took 2.36 s with the requests in flight at its end,
	// 17 of which completed after the step: 245 in 2 s.
	rep = &stats.Report{Transactions: 262, ElapsedTime: 2.36, TransactionRate: 111, Run: stats.RunInfo{TimeLimit: 2}, TimelineInterval: 1,
		Timeline: []stats.TimelinePoint{{Start: 0, Transactions: 120}, {Start: 1, Transactions: 125}, {Start: 2, Transactions: 17}}}
	if s := stats.NewCapacityStep(131.25, rep, nil, stats.StepOutcome{Passed: true}); s.TransactionRate != 122.5 {
		t.Fatalf("rate of a step that waited for its requests in flight: %v, want 122.5", s.TransactionRate)
	}
	if s := stats.NewCapacityStep(131.25, rep, nil, stats.StepOutcome{EndedEarly: true}); s.TransactionRate != 111 {
		t.Fatalf("rate of a step ended early: %v, want the run's 111", s.TransactionRate)
	}
	if s := stats.NewCapacityStep(100, &stats.Report{}, nil, stats.StepOutcome{EndedEarly: true}); s.Broke != "no transaction completed" {
		t.Fatalf("a step without transactions: %+v", s)
	}
	if s := stats.NewCapacityStep(100, &stats.Report{FailedTransactions: 3}, nil, stats.StepOutcome{}); s.Broke != "every request failed" {
		t.Fatalf("a step whose requests all failed: %+v", s)
	}
}

// A search's result saves and reads back whole, compares with a Capacity column first, and
// --max-regression capacity=10% fails a stack that holds 25 % less.
func TestCapacityCompares(t *testing.T) {
	t.Parallel()
	base := fakeRun("old", 1, 2000, 20*time.Millisecond, 5*time.Millisecond, 5*time.Second)
	cand := fakeRun("new", 2, 2000, 20*time.Millisecond, 5*time.Millisecond, 5*time.Second)
	base.Capacity = search()
	base.Run.Version = "test"
	path := filepath.Join(t.TempDir(), "old.json")
	if err := stats.SaveJSON(path, &base); err != nil {
		t.Fatal(err)
	}
	back, err := stats.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Capacity == nil || back.Capacity.Summary() != base.Capacity.Summary() || len(back.Capacity.Steps) != 5 {
		t.Fatalf("read back %+v", back.Capacity)
	}
	c := *search()
	c.Rate = 300
	cand.Capacity = &c
	cmp, err := Compare([]stats.Report{back, cand}, false)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Columns[0].Key != "capacity" || cmp.Rows[1].Cells[0].Value != 300 || *cmp.Rows[1].Cells[0].Change != -0.25 || !cmp.Rows[1].Cells[0].Worse {
		t.Fatalf("columns %+v, candidate's first cell %+v", cmp.Columns[0], cmp.Rows[1].Cells[0])
	}
	var text bytes.Buffer
	if err := cmp.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Capacity") || !strings.Contains(text.String(), "300.0") {
		t.Fatalf("the table shows no capacity:\n%s", text.String())
	}
	for _, tc := range []struct {
		limit string
		pass  bool
	}{{"capacity=10%", false}, {"capacity=30%", true}} {
		limits, err := ParseLimits(tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if v := cmp.CheckLimits(limits); len(v) != 1 || v[0].Passed != tc.pass {
			t.Errorf("%s: %+v", tc.limit, v)
		}
	}
	// Plain runs keep the table they always had.
	plain, err := Compare([]stats.Report{fakeRun("a", 1, 100, time.Millisecond, time.Millisecond, time.Second), cand}, false)
	if err != nil || plain.Columns[0].Key != "capacity" {
		t.Fatalf("a capacity result beside a plain run: %v, %+v", err, plain.Columns[0])
	}
	plain, err = Compare([]stats.Report{fakeRun("a", 1, 100, time.Millisecond, time.Millisecond, time.Second), fakeRun("b", 2, 100, time.Millisecond, time.Millisecond, time.Second)}, false)
	if err != nil || plain.Columns[0].Key == "capacity" {
		t.Fatalf("plain runs: %v, %+v", err, plain.Columns[0])
	}
}

// --max-regression capacity=... judges two searches that settled, and refuses to judge one that
// was interrupted (its capacity is a lower bound) or whose steps could not be judged: such a
// limit is inconclusive, naming the search, and the table says why in a note.
func TestCapacityLimitOnAnUnsettledSearch(t *testing.T) {
	t.Parallel()
	limits, err := ParseLimits("capacity=10%")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		spoil func(base, cand *stats.Capacity)
		want  string // in the verdict; "" for a judged one
	}{
		{name: "both settled", spoil: func(*stats.Capacity, *stats.Capacity) {}},
		{name: "candidate interrupted", spoil: func(_, c *stats.Capacity) { c.StopReason, c.InterruptedAt = stats.StopInterrupted, 15 },
			want: "the search of falls over after 10 was interrupted at 15 req/s, so its capacity is only a lower bound"},
		{name: "baseline interrupted", spoil: func(b, _ *stats.Capacity) { b.StopReason, b.InterruptedAt = stats.StopInterrupted, 40 },
			want: "the search of falls over after 30 was interrupted at 40 req/s"},
		{name: "no step judged", spoil: func(_, c *stats.Capacity) {
			c.Rate = 0
			for i := range c.Steps {
				c.Steps[i].Passed, c.Steps[i].Broke, c.Steps[i].Inconclusive = false, "", "10 requests, error_rate needs 20"
			}
		}, want: "no step of the search of falls over after 10 could be judged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, cand := loadSaved(t, "capacity"), loadSaved(t, "capacity-b")
			tc.spoil(base.Capacity, cand.Capacity)
			cmp, err := Compare([]stats.Report{base, cand}, false)
			if err != nil {
				t.Fatal(err)
			}
			v := cmp.CheckLimits(limits)
			if len(v) != 1 {
				t.Fatalf("verdicts %+v", v)
			}
			if tc.want == "" {
				if v[0].Inconclusive || v[0].Passed || !strings.Contains(v[0].Text, "FAILED") || len(cmp.Notes) != 1 {
					t.Fatalf("a halved capacity: %+v, notes %q", v[0], cmp.Notes)
				}
				return
			}
			if !v[0].Inconclusive || v[0].Passed || !strings.Contains(v[0].Text, tc.want) || !strings.HasSuffix(v[0].Text, "INCONCLUSIVE (search again to judge the capacity)") {
				t.Fatalf("verdict %+v, want inconclusive: %s", v[0], tc.want)
			}
			if len(cmp.Notes) != 2 || !strings.Contains(cmp.Notes[1], "--max-regression does not judge it") {
				t.Fatalf("notes %q", cmp.Notes)
			}
		})
	}
}

// A rate's verdict is its last judged measurement: the capacity is the highest rate passed
// below the lowest failed; the floor takes rates that could not be judged, never one cut
// short.
func TestCapacitySettle(t *testing.T) {
	t.Parallel()
	c := &stats.Capacity{Steps: []stats.CapacityStep{
		{Rate: 10, Inconclusive: "10 transactions, p95 needs 20"}, // 0
		{Rate: 20, Passed: true},                                  // 1
		{Rate: 40, Broke: "p95 1 s"},                              // 2
		{Rate: 40, Passed: true, Again: true},                     // 3: the failure was noise
		{Rate: 80, Broke: "p95 2 s"},                              // 4
		{Rate: 80, Broke: "p95 2 s", Again: true},                 // 5
		{Rate: 60, Inconclusive: "19 transactions, p95 needs 20"}, // 6
		{Rate: 70, Partial: true},                                 // 7
	}}
	if got := c.Settle(); got != (stats.Settled{Best: 3, Next: 5, Floor: 60}) {
		t.Fatalf("settled %+v", got)
	}
	c.Steps = append(c.Steps, stats.CapacityStep{Rate: 40, Broke: "p95 1 s", Again: true}) // 8: does not hold
	if got := c.Settle(); got != (stats.Settled{Best: 1, Next: 8, Floor: 20}) {
		t.Fatalf("settled %+v after 40 failed again", got)
	}
	if got := (&stats.Capacity{}).Settle(); got != (stats.Settled{Best: -1, Next: -1}) {
		t.Fatalf("no steps: %+v", got)
	}
}
