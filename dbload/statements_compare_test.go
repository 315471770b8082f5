package dbload

import (
	"strings"
	"testing"
	"time"
)

// side makes one run's statements, as a reading of them would, top n kept.
func side(label string, source string, tx int64, top int, stmts map[string]stmtCounts) StatementsSide {
	st := diffStatements(snap(source, nil), snap(source, stmts), top, 0)
	return StatementsSide{Label: label, Databases: []Summary{{Statements: st}}, Transactions: tx}
}

// MariaDB's digests meet PostgreSQL's texts of the same statements; per transaction each side's
// calls and time, the ones of one side only listed as such, and the biggest contributors to
// the change in time per transaction the ones that grew most.
func TestCompareStatements(t *testing.T) {
	ms := time.Millisecond
	base := side("mariadb", StatementsMySQL, 10, 10, map[string]stmtCounts{
		"d1": {text: "SELECT NAME FROM `page` WHERE ID = ?", calls: 30, total: 30 * ms},
		"d2": {text: "SELECT * FROM `rev` WHERE `page` IN (...) LIMIT ?, ...", calls: 10, total: 20 * ms},
		"d3": {text: "SELECT ? FROM `cache`", calls: 10, total: 10 * ms},
	})
	cand := side("postgres", StatementsPg, 20, 10, map[string]stmtCounts{
		"1": {text: `SELECT name FROM "page" WHERE id = $1`, calls: 240, total: 480 * ms},
		"2": {text: `SELECT * FROM rev WHERE page IN ($1, $2) LIMIT $3 OFFSET $4`, calls: 20, total: 60 * ms},
		"3": {text: `SELECT count(*) FROM pg_class`, calls: 20, total: 100 * ms},
	})
	c, ok := CompareStatements(base, cand)
	if !ok {
		t.Fatal("no comparison")
	}
	if c.BaseTime != 6*ms || c.Time != 32*ms || c.Change != 26*ms || c.BaseCalls != 5 || c.Calls != 14 {
		t.Errorf("whole: %v -> %v (%v), calls %v -> %v", c.BaseTime, c.Time, c.Change, c.BaseCalls, c.Calls)
	}
	want := []struct {
		key               string
		on                string
		baseCalls, calls  float64
		baseTime, newTime time.Duration
	}{
		{"select name from page where id = ?", OnBoth, 3, 12, 3 * ms, 24 * ms},
		{"select count ( * ) from pg_class", OnCandidate, 0, 1, 0, 5 * ms},
		{"select * from rev where page in ( ? ) limit ? offset ?", OnBoth, 1, 1, 2 * ms, 3 * ms},
		{"select ? from cache", OnBase, 1, 0, ms, 0},
	}
	if len(c.Statements) != len(want) {
		t.Fatalf("statements %+v", c.Statements)
	}
	for i, w := range want {
		s := c.Statements[i]
		if s.Key != w.key || s.On != w.on || s.BaseCalls != w.baseCalls || s.Calls != w.calls || s.BaseTime != w.baseTime || s.Time != w.newTime || s.MaybeOther {
			t.Errorf("statement %d: %+v, want %+v", i, s, w)
		}
	}
	if top := c.Contributors(2); len(top) != 2 || top[0].Change != 21*ms || top[1].Change != 5*ms {
		t.Errorf("contributors %+v", top)
	}
	var b strings.Builder
	c.WriteText(&b)
	for _, w := range []string{`Only on "mariadb" (calls/tx, ms/tx):`, `Only on "postgres" (calls/tx, ms/tx):`, "select count ( * ) from pg_class",
		"3.00 -> 12.00", "+21.000", "Biggest contributors", "81 %"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the text has no %q:\n%s", w, b.String())
		}
	}
}

// A statement missing from a side that summed some statements in its other may be one of them;
// a side without statements or transactions gives no comparison.
func TestCompareStatementsOthers(t *testing.T) {
	base := side("a", StatementsPg, 1, 1, map[string]stmtCounts{"1": {text: "SELECT a", calls: 5, total: time.Second}, "2": {text: "SELECT b", calls: 1, total: time.Millisecond}})
	cand := side("b", StatementsPg, 1, 1, map[string]stmtCounts{"2": {text: "SELECT b", calls: 1, total: time.Second}})
	c, _ := CompareStatements(base, cand)
	for _, s := range c.Statements {
		if s.Key == "select b" && (s.On != OnCandidate || !s.MaybeOther) {
			t.Errorf("select b: %+v, want the candidate's, maybe among the baseline's others", s)
		}
	}
	if _, ok := CompareStatements(base, StatementsSide{Label: "none", Transactions: 1}); ok {
		t.Error("a side without statements compared")
	}
	if _, ok := CompareStatements(base, side("c", StatementsPg, 0, 1, nil)); ok {
		t.Error("a side without transactions compared")
	}
}

// MySQL cuts a long statement's digest text (max_digest_length): such a statement is matched
// with the one statement of the other side that starts as it does, and said to be; with two
// candidates, neither.
func TestCompareStatementsCutDigest(t *testing.T) {
	cols := strings.Repeat("`some_column_name` , ", 48)
	long := "SELECT " + cols + "`a` FROM `t` WHERE `id` = ? AND ( `user_id` ="
	if len(long) < mysqlDigestCut {
		t.Fatalf("the test's digest is %d bytes, too short to have been cut", len(long))
	}
	pgCols := strings.Repeat("some_column_name, ", 48)
	base := side("mariadb", StatementsMySQL, 1, 10, map[string]stmtCounts{"d": {text: long, calls: 1, total: time.Millisecond}})
	one := side("postgres", StatementsPg, 1, 10, map[string]stmtCounts{
		"1": {text: "SELECT " + pgCols + "a FROM t WHERE id = $1 AND (user_id = $2) LIMIT 1", calls: 1, total: time.Millisecond}})
	c, _ := CompareStatements(base, one)
	if len(c.Statements) != 1 || c.Statements[0].On != OnBoth || !c.Statements[0].Prefix {
		t.Errorf("statements %+v, want one on both, matched on its start", c.Statements)
	}
	two := side("postgres", StatementsPg, 1, 10, map[string]stmtCounts{
		"1": {text: "SELECT " + pgCols + "a FROM t WHERE id = $1 AND (user_id = $2) LIMIT 1", calls: 1, total: time.Millisecond},
		"2": {text: "SELECT " + pgCols + "a FROM t WHERE id = $1 AND (user_id = $2) LIMIT 2 OFFSET 3", calls: 1, total: time.Millisecond}})
	if c, _ := CompareStatements(base, two); len(c.Statements) != 3 {
		t.Errorf("statements %+v, want three apart", c.Statements)
	}
}
