package judge

import (
	"strings"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/stats"
)

// compareStatements adds each candidate's statements beside the baseline's (--db with
// --db-statements on both), per transaction of each run.
func (c *Comparison) compareStatements(reports []stats.Report) {
	side := func(i int) dbload.StatementsSide {
		r := &reports[i]
		return dbload.StatementsSide{Label: stats.Label(r, i), Databases: r.DatabaseList(), Transactions: r.Transactions}
	}
	base := side(0)
	for i := 1; i < len(reports); i++ {
		if sc, ok := dbload.CompareStatements(base, side(i)); ok {
			c.Statements = append(c.Statements, sc)
		}
	}
}

// writeStatements writes the Statements sections; in Markdown as preformatted text, whose
// columns a table of normalised statements would not keep readable.
func (c *Comparison) writeStatements(b *strings.Builder, md bool) {
	for i := range c.Statements {
		if md {
			b.WriteString("\n```")
		}
		c.Statements[i].WriteText(b)
		if md {
			b.WriteString("```\n")
		}
	}
}
