package judge

import (
	"fmt"
	"strings"

	"github.com/webload/webload/stats"
)

// noteCountedUnits says when the compared results counted a figure's events in different units:
// MySQL's Questions and pg_stat_statements count statements, PostgreSQL's xact_commit counts
// transactions, so QPS and Q/T side by side would read as a change that is only a change of
// unit.
func (c *Comparison) noteCountedUnits() {
	var titles []string
	var counts func(*stats.Report) (unit, sources string)
	for _, f := range stats.Figures {
		if f.Counts != nil && f.Table {
			titles, counts = append(titles, f.Compare.Title), f.Counts
		}
	}
	if counts == nil {
		return
	}
	var parts []string
	units := map[string]bool{}
	for i := range c.reports {
		unit, src := counts(&c.reports[i])
		if unit == "" {
			continue
		}
		units[unit] = true
		parts = append(parts, fmt.Sprintf("%s counts %s (%s)", c.Rows[i].Label, unit, src))
	}
	if len(units) < 2 {
		return
	}
	c.Notes = append(c.Notes, strings.Join(titles, " and ")+" count different things, so they are not compared (marked unlike) and a limit on them is inconclusive: "+
		strings.Join(parts, ", ")+"; "+unlikeAdvice)
}
