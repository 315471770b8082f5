package judge

import (
	"fmt"

	"github.com/webload/webload/stats"
)

// Unlike is the verdict on a figure that two results count in different units (a database's
// statements on one side, its transactions on the other): their values are not compared, and a
// limit on the figure is inconclusive.
const Unlike = "unlike"

// unlikeCounts says how the baseline and r count figure f when they count it differently, ""
// when they count the same thing, either did not measure it, or f's unit is fixed.
func unlikeCounts(f stats.Figure, base, r *stats.Report, baseLabel, label string) string {
	if f.Counts == nil {
		return ""
	}
	bu, _ := f.Counts(base)
	u, _ := f.Counts(r)
	if bu == "" || u == "" || bu == u {
		return ""
	}
	return fmt.Sprintf("%s counts %s in %s and %s in %s", f.Compare.Title, countsText(f, r), label, countsText(f, base), baseLabel)
}

// unlikeAdvice says how to make the database's query figures count the same thing on every
// stack.
const unlikeAdvice = "load pg_stat_statements on PostgreSQL to count its statements as MySQL and MariaDB do"

// countsText says what f counts in r and from which counters: "transactions
// (xact_commit+xact_rollback)".
func countsText(f stats.Figure, r *stats.Report) string {
	if f.Counts == nil {
		return ""
	}
	u, s := f.Counts(r)
	return u + " (" + s + ")"
}
