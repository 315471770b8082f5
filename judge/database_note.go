package judge

import (
	"fmt"
	"strings"

	"github.com/webload/webload/stats"
)

// noteQueriesSources says when the compared results counted their databases' queries in
// different units: MySQL's Questions and pg_stat_statements count statements, PostgreSQL's
// xact_commit counts transactions, so QPS and Q/T side by side would read as a change that is
// only a change of unit.
func (c *Comparison) noteQueriesSources() {
	var parts []string
	units := map[string]bool{}
	for i := range c.reports {
		unit, src := stats.QueriesUnit(&c.reports[i])
		if unit == "" {
			continue
		}
		units[unit] = true
		parts = append(parts, fmt.Sprintf("%s counts %s (%s)", c.Rows[i].Label, unit, src))
	}
	if len(units) < 2 {
		return
	}
	c.Notes = append(c.Notes, "QPS and Q/T count different things, so they are not compared (marked unlike) and a limit on them is inconclusive: "+
		strings.Join(parts, ", ")+"; "+unlikeAdvice)
}
