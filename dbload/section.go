package dbload

import (
	"fmt"
	"strings"

	"github.com/webload/webload/section"
)

// Summaries are the databases a run read with --db, in --db order: the result's database
// section. Its figures are over all the databases at once: a page that runs statements on two
// databases costs the site both. Counts are summed and ratios worked out from the sums; a
// figure that one of the databases did not measure is not measured, since a sum over some of
// them would pass for the whole.
type Summaries []Summary

// needs is what the database's figures need.
const needs = "--db"

// Figures are the database's figures. For a given load, more statements per second is more
// work for the database, so lower is better, as for statements per transaction (the N+1
// detector) and slow ones.
var Figures = []section.Figure{
	{Name: "qps", Aliases: []string{"queries_per_sec"}, Kind: section.Rate, Summary: "Database queries (/s)",
		Unit: " queries/sec", Needs: needs, Table: true, Counted: true,
		Column: section.Column{Key: "qps", Title: "QPS", Unit: "/s", Scale: 1, Decimals: 1}},
	{Name: "q/t", Aliases: []string{"queries_per_transaction", "qt"}, Kind: section.Rate, Summary: "Database queries per transaction",
		Needs: needs, Table: true, Counted: true,
		Column: section.Column{Key: "q/t", Title: "Q/T", Scale: 1, Decimals: 2}},
	{Name: "slow", Aliases: []string{"slow_queries"}, Kind: section.Count, Summary: "Slow queries", Needs: needs, Table: true,
		Column: section.Column{Key: "slow", Title: "Slow", Scale: 1}},
	{Name: "rows/t", Aliases: []string{"rows_read_per_transaction", "rowst"}, Kind: section.Rate, Summary: "Rows read per transaction",
		Needs:  needs,
		Column: section.Column{Key: "rows/t", Title: "Rows/T", Scale: 1, Decimals: 1}},
	{Name: "buffer_hit_ratio", Aliases: []string{"hit_ratio"}, Kind: section.Percent, HigherIsBetter: true,
		Summary: "Buffer hit ratio (%)", Needs: needs,
		Column: section.Column{Key: "hit", Title: "Hit", Unit: "%", Scale: 1, Decimals: 2}},
	{Name: "deadlocks", Kind: section.Count, Summary: "Deadlocks", Needs: needs,
		Column: section.Column{Key: "deadlocks", Title: "Deadlocks", Scale: 1}},
}

// Value reads one of Figures.
func (s Summaries) Value(figure string, run section.Run) (float64, bool) {
	switch figure {
	case "qps":
		return s.queriesPerSec()
	case "q/t":
		return s.perTransaction(queries, run)
	case "slow":
		return s.count(func(d *Summary) *int64 { return d.SlowQueries })
	case "rows/t":
		return s.perTransaction(func(d *Summary) *int64 { return d.RowsRead }, run)
	case "buffer_hit_ratio":
		return s.hitRatio()
	case "deadlocks":
		return s.count(func(d *Summary) *int64 { return d.Deadlocks })
	}
	return 0, false
}

func queries(d *Summary) *int64 { return d.Queries }

// count sums a count over the databases.
func (s Summaries) count(get func(*Summary) *int64) (float64, bool) {
	if len(s) == 0 {
		return 0, false
	}
	var sum int64
	for i := range s {
		v := get(&s[i])
		if v == nil {
			return 0, false
		}
		sum += *v
	}
	return float64(sum), true
}

// perTransaction is a count over the databases per transaction of the run.
func (s Summaries) perTransaction(get func(*Summary) *int64, run section.Run) (float64, bool) {
	n, ok := s.count(get)
	if !ok || run.Transactions <= 0 {
		return 0, false
	}
	return n / float64(run.Transactions), true
}

// queriesPerSec is the statement rate of all the databases together: they were read over the
// same run, so their rates add up.
func (s Summaries) queriesPerSec() (float64, bool) {
	if _, ok := s.count(queries); !ok {
		return 0, false
	}
	var qps float64
	for _, d := range s {
		qps += d.QueriesPerSec
	}
	return qps, true
}

// hitRatio is the buffer hit ratio of all the databases, each weighted by its queries (the
// reads behind the ratios are not kept), or alike when the queries are not all known or none ran.
func (s Summaries) hitRatio() (float64, bool) {
	if len(s) == 0 {
		return 0, false
	}
	n, weighted := s.count(queries)
	weighted = weighted && n > 0
	var sum, weight float64
	for _, d := range s {
		if d.BufferHitRatio == nil {
			return 0, false
		}
		w := 1.0
		if weighted {
			w = float64(*d.Queries)
		}
		sum += *d.BufferHitRatio * w
		weight += w
	}
	return sum / weight, true
}

// Counts says what the databases' queries count, "statements", "transactions" or "statements
// and transactions" with several databases, and the counters they came from: MySQL's Questions
// and pg_stat_statements count statements, PostgreSQL's xact_commit counts transactions.
func (s Summaries) Counts() (unit, sources string) {
	var srcs []string
	statements, transactions := false, false
	for _, d := range s {
		if d.QueriesSource == "" {
			continue
		}
		srcs = append(srcs, d.QueriesSource)
		if strings.Contains(d.QueriesSource, "xact_commit") {
			transactions = true
		} else {
			statements = true
		}
	}
	switch {
	case statements && transactions:
		unit = "statements and transactions"
	case statements:
		unit = "statements"
	case transactions:
		unit = "transactions"
	}
	return unit, strings.Join(srcs, " + ")
}

// Lines are a block per database: only the figures it measured, each with its unit.
func (s Summaries) Lines(section.Run) []section.Line {
	var out []section.Line
	for i := range s {
		title := "Database:"
		if len(s) > 1 {
			title = fmt.Sprintf("Database %d of %d:", i+1, len(s))
		}
		out = s[i].lines(title, out)
	}
	return out
}

func (d *Summary) lines(title string, out []section.Line) []section.Line {
	line := func(label, format string, args ...any) {
		out = append(out, section.Line{Label: label, Value: fmt.Sprintf(format, args...)})
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
		return out
	}
	if d.CountersReset {
		line("DB counters:", "%12s during the run (a restart, FLUSH STATUS or pg_stat_reset): their counts are left out", "reset")
	}
	if d.Queries != nil {
		v := fmt.Sprintf("%12d (%s), %.2f queries/sec", *d.Queries, d.QueriesSource, d.QueriesPerSec)
		if d.QueriesPerTransaction != nil {
			v += fmt.Sprintf(", %.2f queries per transaction", *d.QueriesPerTransaction)
		}
		line("DB queries:", "%s", v)
	}
	if d.SlowQueries != nil {
		line("DB slow queries:", "%12d", *d.SlowQueries)
	}
	if d.RowsRead != nil {
		v := fmt.Sprintf("%12d rows", *d.RowsRead)
		if d.RowsReadPerTransaction != nil {
			v += fmt.Sprintf(", %.2f rows per transaction", *d.RowsReadPerTransaction)
		}
		line("DB rows read:", "%s", v)
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
		line("DB temp files:", "%12.2f MB written", float64(*d.TempBytes)/(1<<20))
	}
	if st := d.Statements; st != nil {
		line("DB statements:", "%s", st.Headline())
		var rows strings.Builder
		st.WriteRows(&rows, "  ", StatementsTextRows)
		for r := range strings.Lines(rows.String()) {
			out = append(out, section.Line{Value: strings.TrimSuffix(r, "\n")})
		}
		if h := st.SlowHeadline(); h != "" {
			line("DB slow statements:", "%s", h)
			rows.Reset()
			st.WriteSlow(&rows, "  ", StatementsTextRows)
			for r := range strings.Lines(rows.String()) {
				out = append(out, section.Line{Value: strings.TrimSuffix(r, "\n")})
			}
		}
	}
	return out
}
