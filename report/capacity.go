package report

import (
	"cmp"
	"fmt"
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
		for _, sr := range searches(&results[i], i) {
			steps := slices.SortedStableFunc(slices.Values(sr.steps), func(a, b stats.CapacityStep) int { return cmp.Compare(a.Rate, b.Rate) })
			t := capacityTable(steps, &offered[i], &rates[i], &p95s[i])
			tables = append(tables, ladderTable{Label: sr.label, Table: t})
		}
	}
	if len(tables) == 0 {
		return nil
	}
	return &ladder{Rate: alignCurves(offered, rates), P95: alignCurves(offered, p95s), Tables: tables}
}

// search is one capacity search of a result, labelled for its table.
type search struct {
	label string
	steps []stats.CapacityStep
}

// searches are the capacity searches of result i: its own, or each search of a repeated one
// (capacity --repeat), kept in its repeats; none for a result that is no search.
func searches(r *stats.Report, i int) []search {
	c := r.Capacity
	if c == nil {
		return nil
	}
	label := stats.Label(r, i)
	if len(c.Searches) == 0 {
		if len(c.Steps) == 0 {
			return nil
		}
		return []search{{label, c.Steps}}
	}
	var out []search
	for k := range r.Repeats {
		if rc := r.Repeats[k].Capacity; rc != nil && len(rc.Steps) > 0 {
			out = append(out, search{fmt.Sprintf("%s, search %d of %d", label, k+1, len(r.Repeats)), rc.Steps})
		}
	}
	return out
}

// capacityTable is a search's steps as a table, in the order of their rates; the steps that were
// measured whole are added to the result's curves, a rate measured again (in this search or
// another of its series) at its last measurement.
func capacityTable(steps []stats.CapacityStep, offered, rates, p95s *[]float64) table {
	t := table{Columns: capacityColumns}
	for _, s := range steps {
		if !s.Partial { // a step cut short is in the table, not on the curves
			if k := slices.Index(*offered, s.Rate); k >= 0 {
				(*rates)[k], (*p95s)[k] = round(s.TransactionRate, 100), msRound(s.P95)
			} else {
				*offered = append(*offered, s.Rate)
				*rates = append(*rates, round(s.TransactionRate, 100))
				*p95s = append(*p95s, msRound(s.P95))
			}
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
	return t
}
