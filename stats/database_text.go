package stats

import (
	"fmt"
	"strings"

	"github.com/webload/webload/dbload"
)

// writeDatabases adds a block per database read with --db, after the server's load: only the
// figures it measured, each with its unit.
func writeDatabases(b *strings.Builder, rep *Report) {
	dbs := rep.DatabaseList()
	for i := range dbs {
		title := "Database:"
		if len(dbs) > 1 {
			title = fmt.Sprintf("Database %d of %d:", i+1, len(dbs))
		}
		writeDatabase(b, title, &dbs[i])
	}
}

func writeDatabase(b *strings.Builder, title string, d *dbload.Summary) {
	line := func(label, format string, args ...any) {
		fmt.Fprintf(b, "%s%s"+format+"\n", append([]any{label, tabsAfter(label)}, args...)...)
	}
	if d.Kind == "" {
		line(title, "%12s not read", "?")
	} else {
		line(title, "%12s %s", d.Kind, d.Version)
	}
	readings := fmt.Sprintf("%12d from %s", d.Samples, d.Source)
	if d.Samples >= 2 {
		readings += fmt.Sprintf(" over %.2f s", d.Seconds)
	}
	readings += fmt.Sprintf(", %d failed", d.Failures)
	if d.FirstError != "" {
		readings += " (first: " + d.FirstError + ")"
	}
	line("DB readings:", "%s", readings)
	if d.Note != "" {
		line("DB note:", "%s", d.Note)
	}
	if d.Samples < 2 {
		line("DB figures:", "%12s it takes two readings, before and after the run", "none:")
		return
	}
	if d.CountersReset {
		line("DB counters:", "%12s during the run (a restart, FLUSH STATUS or pg_stat_reset): their counts are left out", "reset")
	}
	if d.Queries != nil {
		s := fmt.Sprintf("%12d (%s), %.2f queries/sec", *d.Queries, d.QueriesSource, d.QueriesPerSec)
		if d.QueriesPerTransaction != nil {
			s += fmt.Sprintf(", %.2f queries per transaction", *d.QueriesPerTransaction)
		}
		line("DB queries:", "%s", s)
	}
	if d.SlowQueries != nil {
		line("DB slow queries:", "%12d", *d.SlowQueries)
	}
	if d.RowsRead != nil {
		s := fmt.Sprintf("%12d rows", *d.RowsRead)
		if d.RowsReadPerTransaction != nil {
			s += fmt.Sprintf(", %.2f rows per transaction", *d.RowsReadPerTransaction)
		}
		line("DB rows read:", "%s", s)
	}
	line("DB connections:", "%12d at most", d.ConnectionsMax)
	if d.BufferHitRatio != nil {
		line("DB buffer hit ratio:", "%12.2f %%", *d.BufferHitRatio)
	}
	switch {
	case d.LockWaits == nil:
	case d.LockWaitsPeak:
		line("DB lock waits:", "%12d waiting at most, at one reading", *d.LockWaits)
	default:
		line("DB lock waits:", "%12d row lock waits", *d.LockWaits)
	}
	if d.Deadlocks != nil {
		line("DB deadlocks:", "%12d", *d.Deadlocks)
	}
	if d.TempDiskTables != nil {
		line("DB temp disk tables:", "%12d temporary tables written to disk", *d.TempDiskTables)
	}
	if d.TempBytes != nil {
		line("DB temp files:", "%12.2f MB written", float64(*d.TempBytes)/megabyte)
	}
	writeStatements(b, d)
}
