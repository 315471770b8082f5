package dbload

import (
	"testing"
	"time"
)

// snap makes a snapshot of statements id -> counts.
func snap(source string, counts map[string]stmtCounts) StatementSnapshot {
	return StatementSnapshot{Source: source, Blocks: source == StatementsPg, byID: counts}
}

// The run's statements are the differences, most time first; the top ones are listed, the rest
// summed in Other, and the totals are every statement's; the readers' own statements, and those
// that did not run, are left out; a literal left in a text is masked.
func TestDiffStatements(t *testing.T) {
	ms := time.Millisecond
	before := snap(StatementsPg, map[string]stmtCounts{
		"1": {text: "SELECT a FROM t WHERE id = $1", calls: 10, total: 10 * ms, rows: 10},
		"2": {text: "SELECT b FROM t", calls: 5, total: 50 * ms, rows: 50},
		"3": {text: "SELECT c FROM t", calls: 1, total: ms},
		"9": {text: "SELECT sum(calls) FROM public.pg_stat_statements", calls: 3, total: ms},
	})
	after := snap(StatementsPg, map[string]stmtCounts{
		"1": {text: "SELECT a FROM t WHERE id = $1", calls: 40, total: 40 * ms, rows: 40, blksHit: 7},
		"2": {text: "SELECT b FROM t", calls: 6, total: 90 * ms, rows: 60},
		"3": {text: "SELECT c FROM t", calls: 1, total: ms},
		"4": {text: "SET search_path = 'secret'", calls: 2, total: 2 * ms},
		"5": {text: "SELECT d FROM t", calls: 1, total: 3 * ms, rows: 1},
		"9": {text: "SELECT sum(calls) FROM public.pg_stat_statements", calls: 9, total: 5 * ms},
	})
	got := diffStatements(before, after, 2, 0)
	if got.Digests != 4 || got.Calls != 30+1+2+1 || got.Total != (30+40+2+3)*ms || got.Rows != 30+10+1 {
		t.Errorf("totals: %d digests, %d calls, %v, %d rows", got.Digests, got.Calls, got.Total, got.Rows)
	}
	if len(got.List) != 2 || got.List[0].ID != "2" || got.List[1].ID != "1" {
		t.Fatalf("list %+v, want statements 2 then 1", got.List)
	}
	if a := got.List[1]; a.Calls != 30 || a.Total != 30*ms || a.Mean != ms || a.Rows != 30 || *a.SharedBlocksHit != 7 {
		t.Errorf("statement 1: %+v", a)
	}
	if o := got.Other; o.Calls != 3 || o.Total != 5*ms || got.OtherDigests != 2 {
		t.Errorf("other: %+v, %d digests", o, got.OtherDigests)
	}
	all := diffStatements(before, after, 10, 0)
	for _, st := range all.List {
		if st.ID == "4" && (st.Text != "SET search_path = ?" || !st.Masked) {
			t.Errorf("statement 4 kept as %q (masked %v)", st.Text, st.Masked)
		}
		if st.ID == "9" {
			t.Error("the reader's own statement is listed")
		}
	}
}

// A statement whose counts went back during the run counts from where they started again.
func TestDiffStatementsRestarted(t *testing.T) {
	before := snap(StatementsMySQL, map[string]stmtCounts{"a": {text: "SELECT ?", calls: 100, total: time.Second}})
	after := snap(StatementsMySQL, map[string]stmtCounts{"a": {text: "SELECT ?", calls: 7, total: time.Millisecond}})
	got := diffStatements(before, after, 5, 0)
	if !got.Restarted || got.Calls != 7 || len(got.List) != 1 || got.List[0].SharedBlocksHit != nil {
		t.Errorf("got %+v", got)
	}
}

// A series adds its runs' statements exactly: the listed ones' sums and the totals; a
// statement some run left among its others is marked a lower bound, and Other holds the rest
// of the totals.
func TestCombineStatements(t *testing.T) {
	ms := time.Millisecond
	run := func(top int, stmts map[string]stmtCounts) Summary {
		b := snap(StatementsMySQL, map[string]stmtCounts{})
		return Summary{Statements: diffStatements(b, snap(StatementsMySQL, stmts), top, 0)}
	}
	r1 := run(2, map[string]stmtCounts{
		"a": {text: "A", calls: 10, total: 100 * ms}, "b": {text: "B", calls: 5, total: 50 * ms}, "c": {text: "C", calls: 1, total: 40 * ms}})
	r2 := run(2, map[string]stmtCounts{
		"a": {text: "A", calls: 10, total: 100 * ms}, "c": {text: "C", calls: 2, total: 80 * ms}, "b": {text: "B", calls: 4, total: 30 * ms}})
	got := combineStatements([]Summary{r1, r2})
	if got.Calls != 32 || got.Total != 400*ms {
		t.Errorf("totals %d calls, %v; want 32, 400ms", got.Calls, got.Total)
	}
	byID := map[string]Statement{}
	var listed int64
	for _, st := range got.List {
		byID[st.ID] = st
		listed += st.Calls
	}
	if a := byID["a"]; a.Calls != 20 || a.Total != 200*ms || a.LowerBound {
		t.Errorf("a: %+v, want 20 calls in 200ms, exact", a)
	}
	// b was in run 1's top only, c in run 2's: each is short of the other run's calls.
	if len(got.List) != 2 || got.List[1].ID != "c" || got.List[1].Calls != 2 || !got.List[1].LowerBound {
		t.Errorf("list %+v, want a then c (2 calls, a lower bound)", got.List)
	}
	if got.Other.Calls != got.Calls-listed || got.Other.Total != 400*ms-200*ms-80*ms {
		t.Errorf("other %+v: want the totals less the listed", got.Other)
	}
	if un := combineStatements([]Summary{r1, {}}); un == nil || un.Unavailable == "" {
		t.Errorf("a series with a run without statements: %+v, want unavailable", un)
	}
	if none := combineStatements([]Summary{{}, {}}); none != nil {
		t.Errorf("a series without statements: %+v, want none", none)
	}
}

// Per transaction, each statement's calls and time; a summary sharing its statements with
// another is not changed through them.
func TestStatementsPerTransaction(t *testing.T) {
	s := Summary{Statements: diffStatements(snap(StatementsPg, nil),
		snap(StatementsPg, map[string]stmtCounts{"a": {text: "A", calls: 30, total: 3 * time.Millisecond}}), 5, 0)}
	shared := s
	s.PerTransaction(10)
	a := s.Statements.List[0]
	if *a.CallsPerTransaction != 3 || *a.TimePerTransaction != 300*time.Microsecond {
		t.Errorf("per transaction: %v calls, %v", *a.CallsPerTransaction, *a.TimePerTransaction)
	}
	if shared.Statements.List[0].CallsPerTransaction != nil {
		t.Error("the other summary's statements changed")
	}
}

// Shards read the same database at once: the merged result keeps one shard's statements, as
// it does its other figures, not their sum; the per-transaction figures wait for the merged
// transactions.
func TestMergeShardsKeepsOneShardsStatements(t *testing.T) {
	st := diffStatements(snap(StatementsPg, nil), snap(StatementsPg, map[string]stmtCounts{"a": {text: "A", calls: 30, total: time.Second}}), 5, 0)
	shard := Summary{Samples: 2, Seconds: 1, Statements: st}
	shard.PerTransaction(10)
	got := MergeShards([]Summary{shard, shard})
	if got.Statements.Calls != 30 || got.Statements.List[0].Calls != 30 || got.Statements.List[0].CallsPerTransaction != nil {
		t.Errorf("merged statements %+v", got.Statements)
	}
	if shard.Statements.List[0].CallsPerTransaction == nil {
		t.Error("the shard's own statements changed")
	}
}

// A statement's text comes from the database, where anyone who can run a statement writes it:
// its control characters (a terminal's escape sequences in a quoted name) are shown as \xNN in
// the text reports, never sent to the terminal as they are.
func TestOneLineShowsControlCharacters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "SELECT a\n  FROM t", "SELECT a FROM t"},
		{"an escape sequence", "SELECT relname AS \"\x1b[31mRED\x1b[0m\" FROM pg_class", `SELECT relname AS "\x1b[31mRED\x1b[0m" FROM pg_class`},
		{"a bell, DEL and C1", "SELECT '\a\x7f\u009b'", `SELECT '\x07\x7f\x9b'`},
	} {
		if got := OneLine(tc.in, 200); got != tc.want {
			t.Errorf("%s: OneLine(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
