package dbload

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"
)

// pgStatementsSQL reads pg_stat_statements, one row per statement (its rows per user and
// database summed): the top-level statements only (PostgreSQL 14+), since a statement run by a
// function is in its caller's time already. A row without a queryid is another account's,
// which an account without pg_read_all_stats may not see.
//
// The fastest and slowest calls bound the slow ones (slowBounds); a row that never ran (planned
// only) has none.
func pgStatementsSQL(stmts string, major int) string {
	total, lo, hi, where := "total_exec_time", "min_exec_time", "max_exec_time", "queryid IS NOT NULL"
	if major > 0 && major < 13 {
		total, lo, hi = "total_time", "min_time", "max_time"
	}
	if major >= 14 {
		where += " AND toplevel"
	}
	return fmt.Sprintf(`SELECT queryid::text, (array_agg(left(query, %d)))[1], sum(calls)::bigint, sum(%s)::float8,
       sum(rows)::bigint, sum(shared_blks_hit)::bigint, sum(shared_blks_read)::bigint,
       min(%s) FILTER (WHERE calls > 0)::float8, max(%s) FILTER (WHERE calls > 0)::float8
FROM %s WHERE %s GROUP BY queryid`, maxStatementText+1, total, lo, hi, stmts, where)
}

// Statements reads pg_stat_statements over the reader's connection, connecting first when
// there is none. Its statement is one of the reader's own, left out of Queries.
func (p *postgresSource) Statements(ctx context.Context) (StatementSnapshot, error) {
	if p.conn == nil {
		c, err := p.dial(ctx)
		if err != nil {
			return StatementSnapshot{}, p.wrap("connecting to", err)
		}
		cctx, cancel := graceful(ctx)
		err = p.connect(cctx, c)
		cancel()
		if err != nil {
			return StatementSnapshot{}, p.wrap("connecting to", err)
		}
	}
	if p.stmts == "" {
		why := p.stmtsWhy
		if why == "" {
			why = "pg_stat_statements could not be read when the first reading was taken"
		}
		return StatementSnapshot{}, noStatements(why)
	}
	ctx, cancel := graceful(ctx)
	defer cancel()
	rows, err := p.execRows(ctx, pgStatementsSQL(p.stmts, p.major))
	if err != nil {
		p.drop()
		return StatementSnapshot{}, p.wrap("reading pg_stat_statements of", err)
	}
	p.ownXacts++
	p.ownCalls++
	snap, err := parsePgStatements(rows)
	if err != nil {
		return StatementSnapshot{}, p.wrap("reading pg_stat_statements of", err)
	}
	return snap, nil
}

// parsePgStatements reads pgStatementsSQL's rows.
func parsePgStatements(rows [][][]byte) (StatementSnapshot, error) {
	snap := StatementSnapshot{Source: StatementsPg, Blocks: true, byID: make(map[string]stmtCounts, len(rows))}
	for i, row := range rows {
		if len(row) != 9 {
			return snap, fmt.Errorf("row %d has %d columns, want 9", i+1, len(row))
		}
		var c stmtCounts
		c.text = string(row[1])
		var err error
		if c.total, err = pgMillis(row[3]); err != nil {
			return snap, fmt.Errorf("row %d: total time %q is not a time", i+1, row[3])
		}
		if row[7] != nil && row[8] != nil {
			c.fastest, err = pgMillis(row[7])
			if err == nil {
				c.slowest, err = pgMillis(row[8])
			}
			if err != nil {
				return snap, fmt.Errorf("row %d: fastest or slowest call %q, %q is not a time", i+1, row[7], row[8])
			}
			c.timed = true
		}
		for j, f := range []*int64{&c.calls, &c.rows, &c.blksHit, &c.blksRead} {
			col := []int{2, 4, 5, 6}[j]
			if *f, err = strconv.ParseInt(string(row[col]), 10, 64); err != nil || *f < 0 {
				return snap, fmt.Errorf("row %d: column %d %q is not a count", i+1, col+1, row[col])
			}
		}
		id := string(row[0])
		prev := snap.byID[id]
		prev.add(c)
		snap.byID[id] = prev
	}
	return snap, nil
}

// pgMillis reads a time in milliseconds.
func pgMillis(b []byte) (time.Duration, error) {
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil || ms < 0 || math.IsNaN(ms) || math.IsInf(ms, 0) {
		return 0, fmt.Errorf("%q is not a time", b)
	}
	return time.Duration(math.Round(ms * float64(time.Millisecond))), nil
}
