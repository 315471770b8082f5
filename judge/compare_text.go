package judge

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// marks show a change's verdict in the tables.
var marks = map[string]string{Significant: "*", WithinNoise: "~", NoEstimate: "?", Inconclusive: "!", Unlike: " (unlike)"}

// legend explains the marks; "(unlike)" is explained by the note that comes with it.
const legend = "* significant (p < 0.05), ~ within noise, ! inconclusive, ? no noise estimate; changes are against the first row"

// cellText renders a cell: value, and for candidates the change and its mark.
func cellText(c CompareCell, decimals int) string {
	if !c.Measured {
		return "-"
	}
	s := formatValue(c.Value, decimals)
	if c.Verdict == Unlike {
		return s + marks[Unlike]
	}
	if c.Change != nil {
		s += " " + changeText(*c.Change) + marks[c.Verdict]
	}
	return s
}

// formatValue shows a figure with its column's decimals, or more for small values so at least
// three significant digits remain (a loopback p95 of 0.159 ms, not 0.2).
func formatValue(v float64, decimals int) string {
	if decimals > 0 && v != 0 && math.Abs(v) < 100 {
		for math.Abs(v)*math.Pow10(decimals) < 100 && decimals < 9 {
			decimals++
		}
	}
	return fmt.Sprintf("%.*f", decimals, v)
}

func changeText(change float64) string {
	if math.IsInf(change, 0) {
		return fmt.Sprintf("%+.0f", change) // +Inf: grew from zero
	}
	return fmt.Sprintf("%+.1f%%", change*100)
}

// table is the comparison as rows of strings, header first.
func (c *Comparison) table() [][]string {
	head := []string{"Run"}
	for _, col := range c.Columns {
		name := col.Name
		if col.Unit != "" {
			name += " (" + col.Unit + ")"
		}
		name += columnMark(col)
		head = append(head, name)
	}
	rows := [][]string{head}
	for _, r := range c.Rows {
		label := r.Label
		if r.Runs > 1 {
			label += fmt.Sprintf(" (per run, mean of %d)", r.Runs)
		}
		line := []string{label}
		for i, cell := range r.Cells {
			line = append(line, cellText(cell, columnFigure(c.Columns[i].Key).Compare.Decimals))
		}
		rows = append(rows, line)
	}
	return rows
}

// WriteText writes the comparison as an aligned text table.
func (c *Comparison) WriteText(w io.Writer) error {
	var b strings.Builder
	writeAligned(&b, c.table())
	c.writeStepTable(&b, false)
	c.writeFooter(&b, false)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAligned writes rows as columns padded to their widest cell, the first to the left.
func writeAligned(b *strings.Builder, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, s := range r {
			widths[i] = max(widths[i], len([]rune(s)))
		}
	}
	for _, r := range rows {
		for i, s := range r {
			if i == 0 {
				fmt.Fprintf(b, "%-*s", widths[i], s)
			} else {
				fmt.Fprintf(b, "  %*s", widths[i], s)
			}
		}
		b.WriteString("\n")
	}
}

// markdownCell is s as the text of one Markdown table cell: a backslash is doubled (else it
// would escape what follows it), a pipe is escaped (else it starts a new column), and line
// breaks become spaces (else they end the row).
func markdownCell(s string) string {
	return strings.NewReplacer(`\`, `\\`, "|", `\|`, "\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// WriteMarkdown writes the comparison as a Markdown table, to paste into a ticket.
func (c *Comparison) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	writeMarkdownRows(&b, c.table())
	c.writeStepTable(&b, true)
	c.writeFooter(&b, true)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMarkdownRows writes rows as a Markdown table whose first row is the header.
func writeMarkdownRows(b *strings.Builder, rows [][]string) {
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, s := range r {
			cells[j] = markdownCell(s)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		if i == 0 {
			b.WriteString("|---" + strings.Repeat("|---:", len(r)-1) + "|\n")
		}
	}
}

func (c *Comparison) writeFooter(b *strings.Builder, md bool) {
	b.WriteString("\n" + legend + "\n")
	for _, n := range c.Notes {
		b.WriteString("Note: " + n + "\n")
	}
	c.ContentSection.write(b, "the baseline", md)
	c.writeURLChanges(b, md)
	c.writeStatements(b, md)
}

// writeURLChanges lists the URLs whose figures changed most, when --per-url asked for them: one
// list per figure, in the order asked.
func (c *Comparison) writeURLChanges(b *strings.Builder, md bool) {
	for i, u := range c.URLChanges {
		name, base, value := u.figure()
		prev := ""
		if i > 0 {
			prev, _, _ = c.URLChanges[i-1].figure()
		}
		if name != prev {
			fmt.Fprintf(b, "\nURLs whose %s changed most, both ways, surest first (significant, then the most hits; marks and test per URL):\n", name)
			if md {
				fmt.Fprintf(b, "\n| Run | URL | base %s (ms) | %s (ms) | change | hits (base/new) | test |\n|---|---|---:|---:|---:|---:|---|\n",
					markdownCell(name), markdownCell(name))
			}
		}
		if md {
			fmt.Fprintf(b, "| %s | %s | %.1f | %.1f | %s%s | %d/%d | %s |\n", markdownCell(u.Label), markdownCell(u.Method+" "+u.Path),
				base*1000, value*1000, changeText(u.Change), marks[u.Verdict], u.BaseHits, u.Hits, markdownCell(u.Test))
		} else {
			fmt.Fprintf(b, "  %-20s %9s%s  %9.1f ms -> %9.1f ms  %17s  %s %s  (%s)\n", u.Label, changeText(u.Change), marks[u.Verdict],
				base*1000, value*1000, fmt.Sprintf("%d/%d hits", u.BaseHits, u.Hits), u.Method, u.Path, u.Test)
		}
	}
}
