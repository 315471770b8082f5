package dbload

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The slow calls are bounded from what the database keeps of a statement: its calls and total
// over the run, and its fastest and slowest calls, which may be older than the run.
func TestSlowBounds(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		b     slowBounds
		least int64
		exact bool
	}{
		{"no calls", slowBounds{}, 0, true},
		{"slowest under the threshold: none", slowBounds{calls: 9, total: 90 * ms, fastest: ms, slowest: 99 * ms, timed: true}, 0, true},
		{"fastest over the threshold: all", slowBounds{calls: 7, total: 1400 * ms, fastest: 200 * ms, slowest: 210 * ms, timed: true}, 7, true},
		{"slowest rose in the run: one at least", slowBounds{calls: 100, total: 800 * ms, fastest: ms, slowest: 300 * ms, timed: true, ownMax: true}, 1, false},
		{"slowest from before: maybe none", slowBounds{calls: 100, total: 400 * ms, fastest: ms, slowest: 300 * ms, timed: true}, 0, false},
		// 10 calls of 1 s in all, none above 150 ms: at least (1000-10*100)/(150-100)... = 0;
		// 10 calls, 1.4 s, none above 150: (1400-1000)/50 = 8 at least; 1400/100: 13 at most.
		{"the mean over the threshold bounds the count", slowBounds{calls: 10, total: 1400 * ms, fastest: 50 * ms, slowest: 150 * ms, timed: true}, 8, false},
		{"total under the threshold: none", slowBounds{calls: 3, total: 90 * ms}, 0, true},
		{"no fastest or slowest kept: unknown", slowBounds{calls: 3, total: 900 * ms}, 0, false},
		{"the slowest the run's own, the rest too little for another", slowBounds{calls: 100, total: 400 * ms, fastest: ms, slowest: 300 * ms, timed: true, ownMax: true}, 1, true},
		{"bounds meet", slowBounds{calls: 2, total: 250 * ms, fastest: 50 * ms, slowest: 200 * ms, timed: true, ownMax: true}, 1, true},
		{"bounds apart", slowBounds{calls: 3, total: 400 * ms, fastest: 50 * ms, slowest: 200 * ms, timed: true, ownMax: true}, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			least, exact := tc.b.count(100 * ms)
			if least != tc.least || exact != tc.exact {
				t.Errorf("got %d (exact %v), want %d (exact %v)", least, exact, tc.least, tc.exact)
			}
		})
	}
}

// A run's statements say which took longer than the threshold: a statement whose every call
// was slow counts them all; its slowest call is the run's when it rose, else marked as maybe
// older; a fast one has none.
func TestDiffStatementsSlow(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	before := snap(StatementsPg, map[string]stmtCounts{
		"old": {text: "SELECT old", calls: 1, total: 900 * ms, fastest: 900 * ms, slowest: 900 * ms, timed: true},
	})
	after := snap(StatementsPg, map[string]stmtCounts{
		"sleep": {text: "SELECT pg_sleep($1)", calls: 5, total: 1001 * ms, fastest: 200 * ms, slowest: 201 * ms, timed: true},
		"fast":  {text: "SELECT a FROM t", calls: 50, total: 50 * ms, fastest: ms / 2, slowest: 2 * ms, timed: true},
		"old":   {text: "SELECT old", calls: 3, total: 1050 * ms, fastest: ms, slowest: 900 * ms, timed: true},
	})
	got := diffStatements(before, after, 10, 100*ms)
	by := map[string]Statement{}
	for _, s := range got.List {
		by[s.ID] = s
	}
	if s := by["sleep"]; s.SlowCalls != 5 || !s.SlowExact || s.Max == nil || *s.Max != 201*ms || s.MaxFromBefore {
		t.Errorf("sleep: %+v", s)
	}
	if s := by["fast"]; s.SlowCalls != 0 || !s.SlowExact || *s.Max != 2*ms {
		t.Errorf("fast: %+v", s)
	}
	if s := by["old"]; s.SlowCalls != 0 || s.SlowExact || !s.MaxFromBefore {
		t.Errorf("old: %+v, want its slowest marked as maybe from before and no slow call counted", s)
	}
	if got.SlowThreshold != 100*ms || got.SlowStatements != 1 || got.SlowCalls != 5 {
		t.Errorf("threshold %v, %d slow statements, %d slow calls", got.SlowThreshold, got.SlowStatements, got.SlowCalls)
	}
}

// The section stays bounded whatever the workload: of thousands of statements, many slow and
// many long, the list keeps the top ones by time and up to as many slow ones besides, and the
// rest is summed, its slow calls too.
func TestStatementsBounded(t *testing.T) {
	t.Parallel()
	const top, n = 5, 3000
	after := map[string]stmtCounts{}
	for i := range n {
		c := stmtCounts{text: fmt.Sprintf("SELECT c%d FROM t WHERE x = ? %s", i, strings.Repeat("AND y = ? ", 500)),
			calls: 10, total: time.Duration(i+1) * time.Millisecond, fastest: time.Millisecond, slowest: time.Duration(i) * time.Millisecond, timed: true}
		if i%2 == 0 {
			c.fastest = time.Second // slow every time, and little time in all in the odd ones
			c.total = 10*time.Second + time.Duration(i)
		}
		after[fmt.Sprint(i)] = c
	}
	got := diffStatements(snap(StatementsMySQL, nil), snap(StatementsMySQL, after), top, 100*time.Millisecond)
	if len(got.List) > 2*top || got.OtherDigests != n-len(got.List) {
		t.Errorf("%d statements listed, %d others, want at most %d listed", len(got.List), got.OtherDigests, 2*top)
	}
	var listed int64
	for _, s := range got.List {
		listed += s.SlowCalls
		if len(s.Text) > maxStatementText+len("…") {
			t.Errorf("a text of %d bytes kept", len(s.Text))
		}
	}
	if listed+got.Other.SlowCalls != got.SlowCalls || got.SlowStatements < n/2 {
		t.Errorf("slow calls: %d listed + %d other != %d; %d slow statements", listed, got.Other.SlowCalls, got.SlowCalls, got.SlowStatements)
	}
	b, err := json.Marshal(got)
	t.Logf("%d statements, top %d: %d listed, %d bytes of JSON", n, top, len(got.List), len(b))
	if err != nil || len(b) > 2*top*(maxStatementText+600)+2000 {
		t.Errorf("the section is %d bytes of JSON (%v)", len(b), err)
	}
}

// A series adds its runs' slow calls, exact when every run's was; its slowest call is the
// runs' own unless an older one is above it.
func TestCombineSlowStatements(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	run := func(before map[string]stmtCounts, after map[string]stmtCounts) Summary {
		return Summary{Statements: diffStatements(snap(StatementsMySQL, before), snap(StatementsMySQL, after), 5, 100*ms)}
	}
	sleep := func(calls int64, slowest time.Duration) stmtCounts {
		return stmtCounts{text: "SELECT SLEEP(?)", calls: calls, total: time.Duration(calls) * 200 * ms, fastest: 200 * ms, slowest: slowest, timed: true}
	}
	r1 := run(nil, map[string]stmtCounts{"s": sleep(3, 210*ms)})
	r2 := run(map[string]stmtCounts{"s": sleep(3, 210*ms)}, map[string]stmtCounts{"s": sleep(7, 210*ms)})
	got := combineStatements([]Summary{r1, r2})
	s := got.List[0]
	if s.SlowCalls != 7 || !s.SlowExact || *s.Max != 210*ms || s.MaxFromBefore || got.SlowCalls != 7 || got.SlowStatements != 1 {
		t.Errorf("series: %+v, %d slow calls in %d statements", s, got.SlowCalls, got.SlowStatements)
	}
	r3 := run(map[string]stmtCounts{"s": sleep(1, 900*ms)}, map[string]stmtCounts{"s": sleep(2, 900*ms)})
	if s := combineStatements([]Summary{r1, r3}).List[0]; *s.Max != 900*ms || !s.MaxFromBefore {
		t.Errorf("with an older slowest call: %+v", s)
	}
}
