package stats

import (
	"strings"

	"github.com/webload/webload/dbload"
)

// writeStatements adds the database's statements to its block (--db-statements): a line
// saying what they were, or why there are none, then the ones that took most time.
func writeStatements(b *strings.Builder, d *dbload.Summary) {
	st := d.Statements
	if st == nil || d.Samples < 2 && st.Unavailable == "" {
		return
	}
	label := "DB statements:"
	b.WriteString(label + tabsAfter(label) + st.Headline() + "\n")
	st.WriteRows(b, "  ", dbload.StatementsTextRows)
}
