package judge

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// stepColumns are the figures a ladder's pivot shows per result: where the rate flattens and
// the p95 climbs is the knee, and failures say whether a step broke.
var stepColumns = stats.FiguresNamed("trate", "p95", "failed")

// StepComparison compares the ladders' steps of one number of users: a whole comparison of
// those steps, judged as any results are.
type StepComparison struct {
	Users int `json:"users"`
	Comparison
}

// compareSteps compares, step by step, the ladders among reports: the steps whose number of
// users the baseline and every other result have. A result that is no ladder, or ladders with
// no step in common, leave a note instead.
func (c *Comparison) compareSteps(reports []stats.Report) error {
	ladders := 0
	for i := range reports {
		if len(reports[i].Steps) > 0 {
			ladders++
		}
	}
	switch {
	case ladders == 0:
		return nil
	case ladders < len(reports):
		c.Notes = append(c.Notes, "only some results are ladders (-c 10,20,40): their steps are not compared")
		return nil
	}
	for _, users := range stepUsers(&reports[0]) {
		steps := make([]stats.Report, 0, len(reports))
		for i := range reports {
			j := slices.IndexFunc(reports[i].Steps, func(s stats.Report) bool { return s.Run.Users == users })
			if j < 0 {
				break
			}
			step := reports[i].Steps[j]
			// The stack's name and the step's users, as limits on the step name their verdicts.
			step.Label = fmt.Sprintf("%s at %d users", stats.Label(&reports[i], i), users)
			steps = append(steps, step)
		}
		if len(steps) < len(reports) {
			continue
		}
		sc, err := Compare(steps, false)
		if err != nil {
			return fmt.Errorf("compare the steps of %d users: %w", users, err)
		}
		sc.Notes, sc.ContentSection = nil, ContentSection{} // said once, for the whole results
		c.Steps = append(c.Steps, StepComparison{Users: users, Comparison: sc})
	}
	if len(c.Steps) == 0 {
		c.Notes = append(c.Notes, "the ladders have no number of users in common: their steps are not compared")
	}
	return nil
}

// stepUsers is a ladder's users per step, in its order.
func stepUsers(r *stats.Report) []int {
	out := make([]int, len(r.Steps))
	for i := range r.Steps {
		out[i] = r.Steps[i].Run.Users
	}
	return out
}

// stepTable is the ladders' pivot: a row per number of users, and per figure of stepColumns a
// column per result, the candidates' with their change and mark.
func (c *Comparison) stepTable() [][]string {
	if len(c.Steps) == 0 {
		return nil
	}
	labels := make([]string, len(c.Rows))
	for i, r := range c.Rows {
		labels[i] = r.Label
	}
	head := []string{"Users"}
	for _, f := range stepColumns {
		name := f.Compare.Title
		if f.Compare.Unit != "" {
			name += " (" + f.Compare.Unit + ")"
		}
		for _, l := range labels {
			head = append(head, name+" "+l)
		}
	}
	rows := [][]string{head}
	for _, s := range c.Steps {
		line := []string{strconv.Itoa(s.Users)}
		for _, f := range stepColumns {
			k := slices.IndexFunc(s.figs, func(g stats.Figure) bool { return g.Name == f.Name })
			for _, r := range s.Rows {
				line = append(line, cellText(r.Cells[k], f.Compare.Decimals))
			}
		}
		rows = append(rows, line)
	}
	return rows
}

// writeStepTable writes the ladders' pivot under its title, aligned or as Markdown.
func (c *Comparison) writeStepTable(b *strings.Builder, md bool) {
	rows := c.stepTable()
	if rows == nil {
		return
	}
	b.WriteString("\nLadder, step by step (changes against the first result's step):\n")
	if md {
		b.WriteString("\n")
		writeMarkdownRows(b, rows)
		return
	}
	writeAligned(b, rows)
}

// checkStepLimits judges the limits on every step the ladders share, as on the whole results:
// a stack that holds the whole but regresses at one load regresses there.
func (c *Comparison) checkStepLimits(limits []Limit) []stats.Verdict {
	var out []stats.Verdict
	for i := range c.Steps {
		out = append(out, c.Steps[i].CheckLimits(limits)...)
	}
	return out
}
