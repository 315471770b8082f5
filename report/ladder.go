package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// ladder is what the page draws of concurrency ladders (-c 10,20,40): the transaction rate and
// the p95 of each step against its users, a line per result on one x axis, so that where the
// rate flattens and the p95 climbs (the knee) shows, and two stacks' knees side by side. A
// result that is no ladder has no point.
type ladder struct {
	Rate curves `json:"rate"` // transactions per second
	P95  curves `json:"p95"`  // ms
	// Tables has each ladder's steps as the text report's table shows them, a row per step.
	Tables []ladderTable `json:"tables"`
}

// ladderTable is one result's steps.
type ladderTable struct {
	Label string `json:"label"`
	Table table  `json:"table"`
}

// stepColumns head a ladder's table: sysbench's per-thread-count figures and Little's law.
var stepColumns = []column{
	{Title: "Users", Num: true}, {Title: "TRate (/s)", Num: true}, {Title: "RTime (ms)", Num: true},
	{Title: "p95 (ms)", Num: true}, {Title: "p99 (ms)", Num: true}, {Title: "Failed", Num: true},
	{Title: "Conc", Num: true, Hint: "mean requests in flight"},
	{Title: "Little", Hint: "rate × (response time + mean pause) / users: 1 when the users' time is all accounted for"},
}

// stepTable is a ladder's table, a row per step in the order run.
func stepTable(steps []stats.Report) table {
	t := table{Columns: stepColumns}
	for i := range steps {
		s := &steps[i]
		t.Rows = append(t.Rows, []cell{count(int64(s.Run.Users)), figure(s.TransactionRate), millis(s.ResponseTime),
			millis(s.Percentiles.P95), millis(s.Percentiles.P99), count(s.FailedTransactions), figure(s.Concurrency),
			text(LittleVerdict(s.Little()))})
	}
	return t
}

// buildLadder reads the ladders among results; nil when there is none, and the page draws no
// such chart.
func buildLadder(results []stats.Report) *ladder {
	users := make([][]float64, len(results))
	rates := make([][]float64, len(results))
	p95s := make([][]float64, len(results))
	found := false
	var tables []ladderTable
	for i := range results {
		if len(results[i].Steps) > 0 {
			tables = append(tables, ladderTable{Label: stats.Label(&results[i], i), Table: stepTable(results[i].Steps)})
		}
		for _, s := range results[i].Steps {
			found = true
			users[i] = append(users[i], float64(s.Run.Users))
			rates[i] = append(rates[i], round(s.TransactionRate, 100))
			p95s[i] = append(p95s[i], msRound(s.Percentiles.P95))
		}
	}
	if !found {
		return nil
	}
	return &ladder{Rate: alignCurves(users, rates), P95: alignCurves(users, p95s), Tables: tables}
}

// ladderNote says that a ladder's summary is its steps together, and where each step's are.
func ladderNote(r *stats.Report, label string) string {
	users := make([]string, len(r.Steps))
	for i := range r.Steps {
		users[i] = strconv.Itoa(r.Steps[i].Run.Users)
	}
	return fmt.Sprintf("%q is a ladder of %d steps (%s users): its figures here are all the steps together; "+
		"each step's are under Rate and p95 by users.", label, len(r.Steps), strings.Join(users, ", "))
}
