package stats

import (
	"slices"

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
