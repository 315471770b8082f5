package report

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/webload/webload/dbload"
)

// runStatements is a run's statements (--db with --db-statements): one row per statement its
// databases listed, most time first, then each database's others summed, with the figures per
// transaction, the totals and the slow calls; the note gives each database's headline and its
// slow statements'. nil when the run read no statements.
func runStatements(dbs []dbload.Summary) (*table, string) {
	var notes []string
	var rows [][]cell
	blocks := false
	for i := range dbs {
		st := dbs[i].Statements
		if st == nil {
			continue
		}
		name := ""
		if len(dbs) > 1 {
			name = fmt.Sprintf("database %d of %d: ", i+1, len(dbs))
		}
		note := name + st.Headline() + "."
		if h := st.SlowHeadline(); h != "" {
			note += " Slow statements: " + h + "."
		}
		notes = append(notes, note)
		if st.Unavailable != "" {
			continue
		}
		for _, s := range st.List {
			blocks = blocks || s.SharedBlocksHit != nil
			rows = append(rows, statementRow(i+1, s, dbload.OneLine(s.Text, 2000), st.SlowThreshold > 0))
		}
		if st.OtherDigests > 0 || st.Other.Calls > 0 {
			// The others' slow calls are a sum of lower bounds, shown only when some were counted.
			rows = append(rows, statementRow(i+1, st.Other, fmt.Sprintf("(the other %d statements)", st.OtherDigests),
				st.SlowThreshold > 0 && st.Other.SlowCalls > 0))
		}
	}
	if len(notes) == 0 {
		return nil, ""
	}
	t := &table{Sortable: true, Columns: []column{
		{Title: "DB", Num: true, Hint: "which --db, in order"},
		{Title: "Statement (the database's normalised text)", Sticky: true},
		{Title: "calls/tx", Num: true, Hint: "calls per transaction of the run"},
		{Title: "ms/tx", Num: true, Hint: "its time per transaction of the run"},
		{Title: "calls", Num: true}, {Title: "total ms", Num: true}, {Title: "mean ms", Num: true},
		{Title: "max ms", Num: true, Hint: "its slowest call; ≤: the slowest the database kept, which may be older than the run"},
		{Title: "slow calls", Num: true, Hint: "calls over --db-slow; ≥: at least (bounded from the statement's total, fastest and slowest times)"},
		{Title: "rows", Num: true},
		{Title: "blocks hit", Num: true, Hint: "PostgreSQL's shared buffer blocks found in the cache"},
		{Title: "blocks read", Num: true, Hint: "PostgreSQL's shared buffer blocks read from storage"},
	}}
	if len(dbs) < 2 {
		t.Columns = t.Columns[1:]
		for i := range rows {
			rows[i] = rows[i][1:]
		}
	}
	if !blocks {
		n := len(t.Columns) - 2
		t.Columns = t.Columns[:n]
		for i := range rows {
			rows[i] = rows[i][:n]
		}
	}
	t.Rows = rows
	return t, strings.Join(notes, " ")
}

// statementRow is one statement's row, with its database's number first and its shared blocks
// last; judged says its slow calls were counted.
func statementRow(db int, s dbload.Statement, label string, judged bool) []cell {
	if s.LowerBound {
		label = "(at least) " + label
	}
	perTx := []cell{none(), none()}
	if s.CallsPerTransaction != nil {
		perTx = []cell{figure(*s.CallsPerTransaction), msCell(*s.TimePerTransaction)}
	}
	slow := slowCell(dbload.SlowSide{Calls: s.SlowCalls, Exact: s.SlowExact}, judged)
	return []cell{count(int64(db)), text(label), perTx[0], perTx[1], count(s.Calls), msCell(s.Total), msCell(s.Mean),
		maxCell(s.Max, s.MaxFromBefore), slow, count(s.Rows), optCount(s.SharedBlocksHit), optCount(s.SharedBlocksRead)}
}

// maxCell is a slowest call in milliseconds, "≤" before it when it may be older than the run.
func maxCell(d *time.Duration, before bool) cell {
	if d == nil {
		return none()
	}
	c := msCell(*d)
	if before {
		c.Text = "≤" + c.Text
	}
	return c
}

func optCount(n *int64) cell {
	if n == nil {
		return cell{Text: "-", Key: math.NaN()}
	}
	return count(*n)
}
