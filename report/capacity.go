package report

import (
	"cmp"
	"slices"

	"github.com/webload/webload/stats"
)

// capacityColumns head a capacity search's table: each step's offered and completed rate, its
// p95 and errors, and its verdict on the SLO.
var capacityColumns = []column{
	{Title: "Offered (/s)", Num: true}, {Title: "TRate (/s)", Num: true, Hint: "transactions completed per second"},
	{Title: "p95 (ms)", Num: true}, {Title: "Errors (%)", Num: true}, {Title: "SLO"},
}

// buildCapacity reads the capacity searches among results (webload capacity): the completed
// rate and the p95 of each step against its offered rate, a line per result, where the rate
// stops following the offer and the p95 climbs; and each search's steps as a table, in the
// order of the rates. nil when no result is a search, and the page draws no such chart. The
// charts are those of a ladder, on another x axis, so they share its shape.
func buildCapacity(results []stats.Report) *ladder {
	offered := make([][]float64, len(results))
	rates := make([][]float64, len(results))
	p95s := make([][]float64, len(results))
	var tables []ladderTable
	for i := range results {
		c := results[i].Capacity
		if c == nil || len(c.Steps) == 0 {
			continue
		}
		steps := slices.SortedFunc(slices.Values(c.Steps), func(a, b stats.CapacityStep) int { return cmp.Compare(a.Rate, b.Rate) })
		t := table{Columns: capacityColumns}
		for _, s := range steps {
			if !s.Partial { // a step cut short is in the table, not on the curves
				offered[i] = append(offered[i], s.Rate)
				rates[i] = append(rates[i], round(s.TransactionRate, 100))
				p95s[i] = append(p95s[i], msRound(s.P95))
			}
			verdict := "passed"
			switch {
			case s.Partial:
				verdict = "partial: the search was interrupted"
			case s.Inconclusive != "":
				verdict = "inconclusive: " + s.Inconclusive
			case !s.Passed:
				verdict = "failed: " + s.Broke
			}
			if s.Again {
				verdict += " (measured again)"
			}
			t.Rows = append(t.Rows, []cell{figure(s.Rate), figure(s.TransactionRate), millis(s.P95), figure(s.ErrorRate), text(verdict)})
		}
		tables = append(tables, ladderTable{Label: stats.Label(&results[i], i), Table: t})
	}
	if len(tables) == 0 {
		return nil
	}
	return &ladder{Rate: alignCurves(offered, rates), P95: alignCurves(offered, p95s), Tables: tables}
}
