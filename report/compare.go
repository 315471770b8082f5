package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/webload/webload/judge"
)

// comparison is `webload compare` as tables: one row per figure, the baseline's value, then
// for each candidate its value, the change, the p-value and the verdict.
type comparison struct {
	Figures table `json:"figures"`
	// URLs lists, per candidate, the URLs whose p95 changed most, both ways.
	URLs   table    `json:"urls"`
	Notes  []string `json:"notes"`
	Legend string   `json:"legend"`
	// Content lists the URLs that answer differently from the baseline, as compare's Content
	// section does; ContentNote says how to read it, or that every URL answers as before.
	Content     table  `json:"content"`
	ContentNote string `json:"content_note,omitempty"`
	// Statements puts the database's statements side by side, per transaction (--db with
	// --db-statements); StatementsNote gives each run's whole and what changed it most.
	Statements     *table `json:"statements,omitempty"`
	StatementsNote string `json:"statements_note,omitempty"`
}

// verdictText words stats' verdicts for the page.
var verdictText = map[string]string{
	judge.Significant:  "significant",
	judge.WithinNoise:  "within noise",
	judge.NoEstimate:   "no estimate",
	judge.Inconclusive: "inconclusive",
	judge.Unlike:       "counts another thing",
}

// verdictCell is a verdict in words, styled to stay on one line: "no / estimate" over two
// lines reads as two words of a clipped column.
func verdictCell(v string) cell {
	c := text(verdictText[v])
	c.Class = "verdict"
	return c
}

// comparisonTables lays out a comparison computed by judge.Compare, the same figures and
// verdicts `webload compare` prints.
func comparisonTables(c judge.Comparison) comparison {
	out := comparison{
		Legend: "Change is against the baseline; red is worse, green better. A verdict says whether the change " +
			"is significant (p < 0.05) or within what repeated runs vary by; a result without --repeat has no " +
			"spread to judge rates and counts by (no estimate).",
	}
	for _, n := range c.Notes {
		// The text table marks such cells "?"; the page says "no estimate" in words.
		out.Notes = append(out.Notes, strings.ReplaceAll(n, "(marked ?)", "(no estimate)"))
	}
	t := table{Columns: []column{{Title: "Figure", Sticky: true}}}
	for i, row := range c.Rows {
		title := row.Label
		if row.Runs > 1 {
			title += fmt.Sprintf(" (per run, mean of %d)", row.Runs) // the basis of its figures, as in the summary
		}
		if i == 0 {
			t.Columns = append(t.Columns, column{Title: title + " (baseline)", Num: true})
			continue
		}
		t.Columns = append(t.Columns,
			column{Title: title, Num: true},
			column{Title: "change", Num: true},
			column{Title: "p", Num: true, Hint: "probability of a change at least this large if nothing changed"},
			column{Title: "verdict"})
	}
	for j, col := range c.Columns {
		name := col.Name
		if col.Unit != "" {
			name += " (" + col.Unit + ")"
		}
		line := []cell{text(name)}
		for i, row := range c.Rows {
			cl := row.Cells[j]
			line = append(line, compareValue(cl))
			if i > 0 {
				line = append(line, changeCell(cl), pCell(cl.P), verdictCell(cl.Verdict))
			}
		}
		t.Rows = append(t.Rows, line)
	}
	out.Figures = t
	out.URLs = urlChangeTable(c.URLChanges)
	out.Content, out.ContentNote = contentTable(c.ContentSection)
	if len(c.Statements) > 0 {
		t, note := statementsTable(c.Statements)
		out.Statements, out.StatementsNote = &t, note
	}
	return out
}

// compareValue is a run's figure, with its spread over a --repeat series.
func compareValue(c judge.CompareCell) cell {
	if !c.Measured {
		return none()
	}
	v := figure(c.Value)
	if c.Value == math.Trunc(c.Value) && c.Spread == 0 {
		v.Text = strconv.FormatFloat(c.Value, 'f', 0, 64) // a count, or a whole number of seconds
	}
	v.Text += spreadText(c.Spread, figure)
	return v
}

// changeCell shows a change in percent, coloured by whether it goes the bad way.
func changeCell(c judge.CompareCell) cell {
	if c.Change == nil {
		return none()
	}
	out := cell{Text: changeText(*c.Change), Key: round(*c.Change*100, 1e3)}
	switch {
	case *c.Change == 0:
	case c.Worse:
		out.Class = "worse"
	default:
		out.Class = "better"
	}
	return out
}

// changeText is a relative change as `webload compare` shows it: +12.3 %, or +Inf from zero.
func changeText(change float64) string {
	if math.IsInf(change, 0) {
		return fmt.Sprintf("%+.0f", change)
	}
	return fmt.Sprintf("%+.1f %%", change*100)
}

// pCell shows a p-value with the digits that matter.
func pCell(p *float64) cell {
	if p == nil {
		return none()
	}
	s := fmt.Sprintf("%.3f", *p)
	if *p < 0.001 {
		s = "< 0.001"
	}
	return cell{Text: s, Key: *p}
}

// urlChangeTable lists the URLs whose p95 changed most.
func urlChangeTable(changes []judge.URLChange) table {
	t := table{Sortable: true, Columns: []column{
		{Title: "Run"}, {Title: "Method"}, {Title: "Path", Sticky: true},
		{Title: "baseline p95 (ms)", Num: true}, {Title: "p95 (ms)", Num: true},
		{Title: "change", Num: true}, {Title: "verdict", Hint: "from a test of the URL's p95 on its two latency distributions"},
	}}
	for _, u := range changes {
		ch := cell{Text: changeText(u.Change), Key: round(u.Change*100, 1e3)}
		switch {
		case u.Change > 0:
			ch.Class = "worse" // a slower URL
		case u.Change < 0:
			ch.Class = "better"
		}
		t.Rows = append(t.Rows, []cell{text(u.Label), text(u.Method), text(u.Path),
			millis(u.BaseP95), millis(u.P95), ch, verdictCell(u.Verdict)})
	}
	return t
}
