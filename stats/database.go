package stats

import (
	"slices"
	"strings"

	"github.com/webload/webload/dbload"
)

// SetDatabases attaches what the databases read with --db did during the run, one summary per
// --db in the order given, and sets their per-transaction figures from the run's transactions
// (set those before), with any password in a source or error hidden. With none, the report has
// no database.
func (r *Report) SetDatabases(s []dbload.Summary) {
	r.Database, r.Databases = nil, nil
	s = slices.Clone(s)
	for i := range s {
		// The readers hide passwords already; a summary made some other way must not leak one
		// into the result, which is saved, shared and reported.
		s[i].Source, s[i].FirstError = dbload.Redacted(s[i].Source), dbload.Redacted(s[i].FirstError)
		s[i].QueriesPerTransaction, s[i].RowsReadPerTransaction = nil, nil
		s[i].PerTransaction(r.Transactions)
	}
	switch len(s) {
	case 0:
	case 1:
		r.Database = &s[0]
	default:
		r.Databases = s
	}
}

// DatabaseList is the run's databases, whichever form the JSON gave them in; nil without --db.
func (r *Report) DatabaseList() []dbload.Summary {
	if r.Database != nil {
		return []dbload.Summary{*r.Database}
	}
	return r.Databases
}

// combineDatabases puts together the database figures of several results, database by
// database in --db order: combine takes each database's summaries in the results' order.
func combineDatabases(results []Report, combine func([]dbload.Summary) dbload.Summary) []dbload.Summary {
	var byDB [][]dbload.Summary
	for i := range results {
		for k, s := range results[i].DatabaseList() {
			if k == len(byDB) {
				byDB = append(byDB, nil)
			}
			byDB[k] = append(byDB[k], s)
		}
	}
	out := make([]dbload.Summary, 0, len(byDB))
	for _, s := range byDB {
		out = append(out, combine(s))
	}
	return out
}

// The database figures of a run are over all its databases at once: a page that runs statements
// on two databases costs the site both. Counts are summed and ratios worked out from the sums;
// a figure that one of the databases did not measure is not measured, since a sum over some of
// them would pass for the whole.

// dbCount sums a count over the run's databases.
func dbCount(get func(*dbload.Summary) *int64) func(*Report) (float64, bool) {
	return func(r *Report) (float64, bool) {
		dbs := r.DatabaseList()
		if len(dbs) == 0 {
			return 0, false
		}
		var sum int64
		for i := range dbs {
			v := get(&dbs[i])
			if v == nil {
				return 0, false
			}
			sum += *v
		}
		return float64(sum), true
	}
}

// dbPerTransaction is a count over the run's databases per transaction of the run.
func dbPerTransaction(get func(*dbload.Summary) *int64) func(*Report) (float64, bool) {
	count := dbCount(get)
	return func(r *Report) (float64, bool) {
		n, ok := count(r)
		if !ok || r.Transactions <= 0 {
			return 0, false
		}
		return n / float64(r.Transactions), true
	}
}

func dbQueries(s *dbload.Summary) *int64 { return s.Queries }

// dbQueriesPerSec is the statement rate of all the databases together: they were read over the
// same run, so their rates add up.
func dbQueriesPerSec(r *Report) (float64, bool) {
	if _, ok := dbCount(dbQueries)(r); !ok {
		return 0, false
	}
	var qps float64
	for _, s := range r.DatabaseList() {
		qps += s.QueriesPerSec
	}
	return qps, true
}

// dbHitRatio is the buffer hit ratio of all the databases, each weighted by its queries (the
// reads behind the ratios are not kept), or alike when the queries are not all known or none ran.
func dbHitRatio(r *Report) (float64, bool) {
	dbs := r.DatabaseList()
	if len(dbs) == 0 {
		return 0, false
	}
	queries, weighted := dbCount(dbQueries)(r)
	weighted = weighted && queries > 0
	var sum, weight float64
	for _, s := range dbs {
		if s.BufferHitRatio == nil {
			return 0, false
		}
		w := 1.0
		if weighted {
			w = float64(*s.Queries)
		}
		sum += *s.BufferHitRatio * w
		weight += w
	}
	return sum / weight, true
}

// queriesUnit says what a result's database queries count, "statements", "transactions" or
// "statements and transactions" with several databases, and the counters they came from; ""
// when it read no database.
func QueriesUnit(r *Report) (unit, sources string) {
	var srcs []string
	statements, transactions := false, false
	for _, d := range r.DatabaseList() {
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
