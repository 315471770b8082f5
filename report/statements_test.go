package report

import (
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/judge"
)

// The comparison's page has a Statements table, one row per statement and candidate, when
// compare put statements side by side, and none when it did not.
func TestComparisonStatementsTable(t *testing.T) {
	c := judge.Comparison{Statements: []dbload.StatementsComparison{{
		Base: "mariadb", Label: "postgres", BaseTime: time.Millisecond, Time: 3 * time.Millisecond, Change: 2 * time.Millisecond,
		Statements: []dbload.StatementChange{
			{Key: "select a from t", On: dbload.OnBoth, BaseCalls: 1, Calls: 4, BaseTime: time.Millisecond, Time: 2 * time.Millisecond, Change: time.Millisecond},
			{Key: "select b from t", On: dbload.OnCandidate, Calls: 1, Time: time.Millisecond, Change: time.Millisecond},
		},
	}}}
	out := comparisonTables(c)
	if out.Statements == nil || len(out.Statements.Rows) != 2 || out.StatementsNote == "" {
		t.Fatalf("statements table %+v, note %q", out.Statements, out.StatementsNote)
	}
	if on := out.Statements.Rows[1][2].Text; on != "postgres only" {
		t.Errorf("the one-sided statement is %q, want postgres only", on)
	}
	if none := comparisonTables(judge.Comparison{}); none.Statements != nil {
		t.Error("a comparison without statements has a table")
	}
}

// The comparison's Statements table gives each side's slow calls and slowest call, and says
// which statement was slow on one side only; a side without a threshold has none counted.
func TestComparisonSlowStatements(t *testing.T) {
	slowest := 201 * time.Millisecond
	c := judge.Comparison{Statements: []dbload.StatementsComparison{{
		Base: "postgres", Label: "mariadb", SlowThreshold: 100 * time.Millisecond,
		Statements: []dbload.StatementChange{
			{Key: "select sleep ( ? )", On: dbload.OnCandidate, Calls: 1, Time: slowest, Change: slowest, SlowOn: dbload.OnCandidate,
				Slow: dbload.SlowSide{Calls: 6, Exact: true, Max: &slowest}},
		},
	}}}
	row := comparisonTables(c).Statements.Rows[0]
	got := []string{row[2].Text, row[8].Text, row[9].Text, row[11].Text}
	want := []string{"mariadb only, slow on mariadb only", "-", "6", "201.0"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("row %q, want %q", got, want)
	}
}
